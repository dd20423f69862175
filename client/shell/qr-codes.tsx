/** The author's QR codes, previewed in a modal dialog; without JavaScript each is a link to its image. */
import { useRef, useState } from "react";
import { ResponsiveImg } from "../components/responsive-img.tsx";
import { linkOf } from "../data/content-values.ts";
import { fill } from "../i18n/fill.ts";
import { FOOTER_MESSAGES } from "../i18n/messages-footer.ts";
import { useT } from "../i18n/use-t.ts";

export function QrCodes({ images, label }: { images: unknown[]; label: string }) {
  const t = useT(FOOTER_MESSAGES);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [shown, setShown] = useState<number | null>(null);
  const links = images.map(linkOf).filter(Boolean);
  if (links.length === 0) return null;

  return (
    <section className="footer-qrcodes" aria-labelledby="footer-qrcodes-title">
      <h2 className="footer-title" id="footer-qrcodes-title">
        {label}
      </h2>
      <ul className="qr-list">
        {links.map((src, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the codes are a fixed list of slots, and two may share an image.
          <li key={index}>
            <a
              className="qr-link"
              href={src}
              aria-label={fill(t("footer.qrcodeOpen"), { n: index + 1 })}
              onClick={(event) => {
                if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || !dialogRef.current?.showModal) return;
                event.preventDefault();
                setShown(index);
                dialogRef.current.showModal();
              }}
            >
              <ResponsiveImg
                src={src}
                alt={fill(t("footer.qrcode"), { n: index + 1 })}
                width={88}
                height={88}
                box={[88, 88]}
                sizes="88px"
                loading="lazy"
              />
            </a>
          </li>
        ))}
      </ul>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard's way out is Escape, which the native dialog handles. */}
      <dialog
        ref={dialogRef}
        className="qr-dialog"
        aria-label={shown === null ? label : fill(t("footer.qrcode"), { n: shown + 1 })}
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself) closes it.
          if (event.target === event.currentTarget) event.currentTarget.close();
        }}
        onClose={() => setShown(null)}
      >
        <div className="qr-dialog-body">
          {shown !== null && (
            <figure className="qr-preview">
              <ResponsiveImg
                src={links[shown]}
                alt={fill(t("footer.qrcode"), { n: shown + 1 })}
                width={280}
                height={280}
                box={[280, 280]}
                sizes="280px"
              />
              <figcaption>{fill(t("footer.qrcode"), { n: shown + 1 })}</figcaption>
            </figure>
          )}
          <form method="dialog">
            <button type="submit" className="button">
              {t("footer.close")}
            </button>
          </form>
        </div>
      </dialog>
    </section>
  );
}
