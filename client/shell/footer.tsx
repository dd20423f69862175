/** The footer; each group a native <details>, an accordion at 768 px or less (docs/behaviour.md#the-shell). */
import { type ReactNode, useEffect, useRef } from "react";
import { keys } from "../../shared/data-keys.ts";
import type { Author, SiteConfig } from "../../shared/entities.ts";
import { pageTitle } from "../../shared/page-titles.ts";
import { PAGES, type PageId } from "../../shared/routes.ts";
import { usePageState } from "../data/page-state-context.tsx";
import { useApi } from "../data/use-api.ts";
import { FOOTER_MESSAGES } from "../i18n/messages-footer.ts";
import { useT } from "../i18n/use-t.ts";
import { AnchorLink } from "../routing/anchor-link.tsx";
import { PageLink } from "../routing/page-link.tsx";
import { ChevronIcon } from "./menu-icons.tsx";
import { QrCodes } from "./qr-codes.tsx";
import { useMenuMode } from "./use-layout.ts";

const ICP_SITE = "https://beian.miit.gov.cn/";
const POLICE_SITE = "https://beian.mps.gov.cn/";
const SLOTS = [1, 2, 3, 4, 5] as const;

const PAGE_GROUPS = [
  ["footer.messages", ["newsList", "noticeList"]],
  ["footer.about", ["about", "founders", "milestones"]],
  ["footer.join", ["jobSocietyList", "jobSchoolList"]],
] as const satisfies readonly (readonly [keyof typeof FOOTER_MESSAGES, readonly PageId[]])[];

const textOf = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

function numbered(author: Partial<Author> | undefined, prefix: "qq" | "wx" | "addr" | "qrcode"): string[] {
  return SLOTS.map((n) => textOf(author?.[`${prefix}${n}`])).filter(Boolean);
}

function FooterGroup({ title, wide, children }: { title: string; wide: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const wasWide = useRef(false);
  // Open while wide, so the state matches what is shown; narrow from the start, left as the visitor set it.
  useEffect(() => {
    if (ref.current && (wide || wasWide.current)) ref.current.open = wide;
    wasWide.current = wide;
  }, [wide]);
  return (
    <details className="footer-group" ref={ref}>
      {/* On a wide screen the title does nothing: out of the tab order once the layout is known. */}
      <summary className="footer-summary" tabIndex={wide ? -1 : undefined}>
        <h2 className="footer-title">{title}</h2>
        <ChevronIcon />
      </summary>
      <ul className="footer-list">{children}</ul>
    </details>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  const t = useT();
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden">{t("shell.newWindow")}</span>
    </a>
  );
}

/** A record's or licence's number: never broken at its hyphen, its digits in order in a right-to-left page. */
const RecordNumber = ({ value }: { value: string }) => (
  <span className="record-number" dir="ltr">
    {value}
  </span>
);

export function Footer({ id }: { id: string }) {
  const t = useT(FOOTER_MESSAGES);
  const { lang } = usePageState();
  const mode = useMenuMode();
  const author = useApi<Partial<Author>>(keys.sysauthor()).data;
  const config = useApi<Partial<SiteConfig>>(keys.syscfg()).data;
  const wide = mode === "horizontal";
  const phone = textOf(author?.phone);
  const email = textOf(author?.email);
  const contacts: [string, string][] = [
    ...numbered(author, "qq").map((qq): [string, string] => [t("footer.qq"), qq]),
    ...numbered(author, "wx").map((wx): [string, string] => [t("footer.wechat"), wx]),
    ...numbered(author, "addr").map((addr): [string, string] => [t("footer.address"), addr]),
  ];
  const record = textOf(config?.record);
  const edi = textOf(config?.edi);
  const police = textOf(config?.policeRecord);

  return (
    <footer className="site-footer" id={id}>
      <div className="footer-inner">
        <div className="footer-groups">
          <FooterGroup title={t("footer.offerings")} wide={wide}>
            <li>
              <AnchorLink anchor="product-list">{t("footer.products")}</AnchorLink>
            </li>
            <li>
              <AnchorLink anchor="service-list">{t("footer.services")}</AnchorLink>
            </li>
          </FooterGroup>
          {PAGE_GROUPS.map(([title, pages]) => (
            <FooterGroup key={title} title={t(title)} wide={wide}>
              {pages.map((page) => (
                <li key={page}>
                  <PageLink to={PAGES[page].href()}>{pageTitle(PAGES[page], lang)}</PageLink>
                </li>
              ))}
            </FooterGroup>
          ))}
          <FooterGroup title={t("footer.contact")} wide={wide}>
            <li>
              <PageLink to={PAGES.contact.href()}>{pageTitle(PAGES.contact, lang)}</PageLink>
            </li>
            {phone && (
              <li className="contact-item">
                <span className="contact-label">{t("footer.phone")}</span>
                <a href={`tel:${phone.replace(/[^\d+]/g, "")}`}>{phone}</a>
              </li>
            )}
            {email && (
              <li className="contact-item">
                <span className="contact-label">{t("footer.email")}</span>
                <a href={`mailto:${email}`}>{email}</a>
              </li>
            )}
            {contacts.map(([label, value]) => (
              <li className="contact-item" key={`${label}${value}`}>
                <span className="contact-label">{label}</span>
                <span>{value}</span>
              </li>
            ))}
          </FooterGroup>
        </div>
        <QrCodes images={numbered(author, "qrcode")} label={t("footer.qrcodes")} />
      </div>
      <div className="footer-bottom">
        <p className="footer-copyright">
          {[textOf(config?.copyright), textOf(author?.fname), t("footer.rights")].filter(Boolean).join(" ")}
        </p>
        {(record || edi || police) && (
          <p className="footer-records">
            {record && (
              <ExternalLink href={ICP_SITE}>
                <RecordNumber value={record} />
              </ExternalLink>
            )}
            {edi && (
              <span>
                {t("footer.edi")}
                <RecordNumber value={edi} />
              </span>
            )}
            {police && <ExternalLink href={POLICE_SITE}>{police}</ExternalLink>}
          </p>
        )}
      </div>
    </footer>
  );
}
