import type { PageProps } from "./page-props.ts";

export default function MilestonesPage({ match }: PageProps) {
  return <h1>{match.route.id}</h1>;
}
