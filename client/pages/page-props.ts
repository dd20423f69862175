import type { RouteMatch } from "../../shared/routes.ts";

/** What every page component receives: the matched route and the page URL's query. */
export interface PageProps {
  match: RouteMatch;
  query: URLSearchParams;
}

export interface PageModule {
  default: (props: PageProps) => React.ReactNode;
}
