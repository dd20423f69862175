/** The contact form (docs/behaviour.md#enquiries): rendered for each request, since each form carries a token of its own. */
import { definePage } from "../page-route.ts";
import { SUBJECT_LIMIT } from "../subject-limit.ts";

export const contact = definePage({
  id: "contact",
  path: "/contact.html",
  title: { "zh-CN": "联系我们", en: "Contact us" },
  // `?subject=` fills in the subject (from a product, service or job page); `?sent=1` is the thank-you.
  query: (query) => ({
    subject: query.get("subject")?.trim().slice(0, SUBJECT_LIMIT) || undefined,
    sent: query.get("sent") === "1" ? 1 : undefined,
  }),
  canonicalWithoutQuery: true,
  perRequest: true,
});
