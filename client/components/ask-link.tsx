/** "Ask about this": the contact form with the subject filled in (a product's, a service's or a job's name). */
import { contact } from "../../shared/pages/contact-page.ts";
import { withQuery } from "../../shared/with-query.ts";
import { PAGES_MESSAGES } from "../i18n/messages-pages.ts";
import { useT } from "../i18n/use-t.ts";
import { PageLink } from "../routing/page-link.tsx";

export function AskLink({ subject }: { subject: string }) {
  const t = useT(PAGES_MESSAGES);
  if (!subject) return null;
  return (
    <p className="detail-ask">
      <PageLink to={withQuery(contact.path, { subject })}>{t("pages.contact.ask")}</PageLink>
    </p>
  );
}
