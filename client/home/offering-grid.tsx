/** The products and services grids of the default home layout: 3 columns for exactly 5 items, else 4 (docs/behaviour.md#home-page). */
import type { Product } from "../../shared/entities.ts";
import { useItemLang } from "../components/content-lang.tsx";
import { ResponsiveImg } from "../components/responsive-img.tsx";
import { isId, textOf } from "../data/content-values.ts";
import { PageLink } from "../routing/page-link.tsx";

/** The products' pictures are 4:3; the CSS keeps their boxes at that ratio. */
const PICTURE_WIDTH = 800;
const PICTURE_HEIGHT = 600;
/** Four or three columns of a 1200 px page; two from 768 px down. */
const PICTURE_BOX = [160, 384] as const;
const PICTURE_SIZES = "(max-width: 768px) 50vw, 384px";

const gridColumns = (count: number): 3 | 4 => (count === 5 ? 3 : 4);

/** What the grids show of a product or service (the home page's state carries little more: shared/page-data.ts). */
export type Offering = Pick<Product, "id" | "name"> & Partial<Pick<Product, "propImg">>;

export function OfferingGrid({ items, kind }: { items: Offering[]; kind: "product" | "service" }) {
  const itemLang = useItemLang();
  return (
    <ul className={`home-grid home-grid-${gridColumns(items.length)} home-grid-${kind}`}>
      {items.map((item, index) => {
        const picture = kind === "product" ? textOf(item.propImg) : "";
        const body = (
          <>
            {picture && (
              <ResponsiveImg
                src={picture}
                width={PICTURE_WIDTH}
                height={PICTURE_HEIGHT}
                box={PICTURE_BOX}
                sizes={PICTURE_SIZES}
                loading="lazy"
                decoding="async"
              />
            )}
            <span className="home-card-name" lang={itemLang(item)}>
              {textOf(item.name)}
            </span>
          </>
        );
        return (
          <li key={isId(item.id) ? item.id : `i${index}`} className="home-card">
            {isId(item.id) ? (
              <PageLink to={`/${kind}/${item.id}`} className="home-card-link">
                {body}
              </PageLink>
            ) : (
              <div className="home-card-link">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
