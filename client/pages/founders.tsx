import type { PageProps } from "./page-props.ts";

export default function FoundersPage({ match }: PageProps) {
  return <h1>{match.route.id}</h1>;
}
