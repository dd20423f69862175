/**
 * This process's search index: the last good file, and a build of the next renamed over it
 * once whole (docs/behaviour.md#search, "Fresh and safe").
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { isSearchType, SEARCH_TYPES, type SearchHit, type SearchQuery, type SearchResult, type SearchType } from "../../shared/search.ts";
import { IndexFile, type SearchDoc } from "./index-file.ts";
import { isAlive } from "./index-lease.ts";
import { markAll, snippetOf } from "./marks.ts";
import { matchExpression, queryTerms } from "./text.ts";

/** An item a build found new, changed or gone (by its identity in the content). */
export interface IndexChange {
  type: SearchType;
  id: number;
  change: "new" | "changed" | "gone";
}

export interface IndexFigures {
  documents: number;
  bytes: number;
  builtAt?: number;
  buildSeconds?: number;
}

const emptyFacets = (): Record<SearchType, number> =>
  Object.fromEntries(SEARCH_TYPES.map((type) => [type, 0])) as Record<SearchType, number>;

export class SearchIndex {
  private main: IndexFile | undefined;
  private building: IndexFile | undefined;
  /** Made again in the build before it replaces the index. */
  private changedDuringBuild = new Map<string, SearchDoc | { type: SearchType; id: number; removed: true }>();
  private lastBuild: { at: number; seconds: number } | undefined;
  /** Items the build under way was given: the others are gone when it finishes. */
  private seen = new Set<string>();
  private fromScratch = true;

  readonly file: string;
  private readonly cacheKb: number | undefined;

  constructor(file: string, cacheKb?: number) {
    this.file = file;
    this.cacheKb = cacheKb;
  }

  /** Also clears what a build that died left behind. */
  open(): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const base = path.basename(this.file);
    for (const name of readdirSync(path.dirname(this.file))) {
      const pid = name.startsWith(`${base}.build-`) ? Number(name.slice(base.length + ".build-".length)) : undefined;
      const file = path.join(path.dirname(this.file), name);
      if (pid !== undefined && !isAlive(pid)) rmSync(file, { force: true });
    }
    if (!existsSync(this.file)) return;
    try {
      this.main = new IndexFile(this.file, { cacheKb: this.cacheKb });
      this.mainFileId = statSync(this.file).ino;
    } catch {
      // Another version's, or not an index at all: the next build replaces it.
      this.main = undefined;
      this.outdated = true;
    }
  }

  /** A file is there that this version cannot read, and no build has replaced it yet. */
  outdated = false;

  /** The file the last good index was opened from: a build elsewhere replaces it. */
  private mainFileId: number | undefined;

  /**
   * For a process that only reads an index another keeps: opens the file again when a build
   * has renamed a new one over it.
   */
  followReplaced(): void {
    if (this.building) return;
    let id: number | undefined;
    try {
      id = statSync(this.file).ino;
    } catch {
      return;
    }
    if (id === this.mainFileId && this.main) return;
    try {
      const next = new IndexFile(this.file, { cacheKb: this.cacheKb });
      this.main?.close();
      this.main = next;
      this.mainFileId = id;
    } catch {
      // Half-written by another version: the last one read stays.
    }
  }

  private get reading(): IndexFile | undefined {
    return this.main ?? this.building;
  }

  get isBuilding(): boolean {
    return this.building !== undefined;
  }

  /**
   * `fingerprintOf` and `docOf` still read the last good index meanwhile. The build starts
   * from a copy of it, so an item whose text did not change is not tokenised again.
   */
  beginBuild(): void {
    if (this.building) throw new Error("a search index build is under way already");
    const file = `${this.file}.build-${process.pid}`;
    rmSync(file, { force: true });
    this.fromScratch = this.main === undefined;
    if (this.main) copyFileSync(this.main.path, file);
    try {
      this.building = new IndexFile(file, { building: true, cacheKb: this.cacheKb });
    } catch {
      rmSync(file, { force: true });
      this.fromScratch = true;
      this.building = new IndexFile(file, { building: true, cacheKb: this.cacheKb });
    }
    this.changedDuringBuild.clear();
    this.seen.clear();
  }

  /** Says which of `docs` were new or changed. */
  addToBuild(docs: readonly SearchDoc[]): IndexChange[] {
    const building = this.building;
    if (!building) throw new Error("no search index build is under way");
    const changes: IndexChange[] = [];
    building.batch(() => {
      for (const doc of docs) {
        this.seen.add(`${doc.type}:${doc.id}`);
        const change = building.putIfChanged(doc);
        if (change) changes.push({ type: doc.type, id: doc.id, change });
      }
    });
    return changes;
  }

  /** A build with no last index to start from finds every item new. */
  get buildIsFromScratch(): boolean {
    return this.fromScratch;
  }

  /** Says which items are gone: held before, and neither given to the build nor changed meanwhile. */
  finishBuild(startedAt: number, now: number): IndexChange[] {
    const building = this.building;
    if (!building) throw new Error("no search index build is under way");
    const gone: IndexChange[] = [];
    building.batch(() => {
      for (const { type, id } of building.keys()) {
        const key = `${type}:${id}`;
        if (this.seen.has(key) || this.changedDuringBuild.has(key)) continue;
        building.remove(type, id);
        gone.push({ type, id, change: "gone" });
      }
      for (const change of this.changedDuringBuild.values()) {
        if ("removed" in change) building.remove(change.type, change.id);
        else building.put(change);
      }
    });
    // Merging every segment is worth its cost once; after, FTS5's own merging keeps up with small changes.
    if (this.fromScratch) building.optimise();
    building.close();
    this.building = undefined;
    this.main?.close();
    renameSync(building.path, this.file);
    this.main = new IndexFile(this.file, { cacheKb: this.cacheKb });
    this.mainFileId = statSync(this.file).ino;
    this.outdated = false;
    this.lastBuild = { at: now, seconds: (now - startedAt) / 1000 };
    this.seen.clear();
    return gone;
  }

  abandonBuild(): void {
    const building = this.building;
    if (!building) return;
    building.close();
    rmSync(building.path, { force: true });
    this.building = undefined;
  }

  /** Into the index now, and into a build under way. */
  put(doc: SearchDoc): void {
    this.main?.put(doc);
    if (this.building) {
      this.changedDuringBuild.set(`${doc.type}:${doc.id}`, doc);
      if (!this.main) this.building.put(doc);
    }
  }

  remove(type: SearchType, id: number): void {
    this.main?.remove(type, id);
    if (this.building) {
      this.changedDuringBuild.set(`${type}:${id}`, { type, id, removed: true });
      if (!this.main) this.building.remove(type, id);
    }
  }

  fingerprintOf(type: SearchType, id: number): string | undefined {
    return this.main?.fingerprintOf(type, id);
  }

  docOf(type: SearchType, id: number): SearchDoc | undefined {
    return this.main?.docOf(type, id);
  }

  search(query: SearchQuery): SearchResult {
    const empty: SearchResult = { pageDataList: [], totalCount: 0, totalPageCount: 0, facets: emptyFacets() };
    const index = this.reading;
    const terms = queryTerms(query.q);
    const all = matchExpression(terms);
    if (!index || !all) return empty;
    const facets = emptyFacets();
    const match = { all, title: matchExpression(terms, "title") as string, brief: matchExpression(terms, "brief") as string };
    const found = index.search(match, query.type, query.pageMaxCount, query.pageIndex * query.pageMaxCount);
    for (const [type, n] of found.facets) if (isSearchType(type)) facets[type] = n;
    const totalCount = query.type ? facets[query.type] : Object.values(facets).reduce((a, b) => a + b, 0);
    const ranked = found.ranked;
    const docs = index.docs(ranked.map((r) => r.rowid));
    const pageDataList: SearchHit[] = [];
    for (const { rowid } of ranked) {
      const doc = docs.get(rowid);
      if (!doc) continue;
      const snippet = snippetOf(
        [
          { text: doc.brief, norm: doc.normBrief, aligned: (doc.aligned & 1) !== 0 },
          { text: doc.body, norm: doc.normBody, aligned: (doc.aligned & 2) !== 0 },
        ],
        terms,
      );
      pageDataList.push({
        type: doc.type,
        id: doc.id,
        title: markAll(doc.title, terms),
        snippet,
        url: doc.url,
        ...(doc.date ? { dateTime: doc.date } : {}),
      });
    }
    return { pageDataList, totalCount, totalPageCount: Math.ceil(totalCount / query.pageMaxCount), facets };
  }

  figures(): IndexFigures {
    const index = this.reading;
    let bytes = 0;
    try {
      bytes = index ? statSync(index.path).size : 0;
    } catch {}
    return {
      documents: index?.count() ?? 0,
      bytes,
      ...(this.lastBuild ? { builtAt: this.lastBuild.at, buildSeconds: this.lastBuild.seconds } : {}),
    };
  }

  close(): void {
    this.abandonBuild();
    this.main?.close();
    this.main = undefined;
  }
}
