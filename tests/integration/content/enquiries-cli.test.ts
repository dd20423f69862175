/**
 * `npm run content -- enquiries [--since DATE] [--json]` and `enquiries delete ID` as an
 * operator runs them: a child process against a database holding enquiries.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEnquiryStore, type EnquiryStore } from "../../../server/enquiries/store.ts";
import { runContentCli } from "../../support/content-cli.ts";
import { describeEachDatabase } from "../../support/databases.ts";

const runCli = (args: string[], databaseUrl: string) => runContentCli(args, { DATABASE_URL: databaseUrl });

const row = (name: string, createdAt: string, message: string) => ({
  created_at: Date.parse(createdAt),
  lang: "zh-CN",
  name,
  email: `${name.toLowerCase()}@example.com`,
  phone: "",
  company: "",
  subject: "",
  message,
  consent_at: Date.parse(createdAt),
  consent_version: "2025-01",
  client_hash: "hash",
  webhook_state: "off" as const,
  mail_state: "off" as const,
  next_attempt_at: null,
});

describeEachDatabase("enquiries cli", (databases) => {
  let databaseUrl: string;
  let store: EnquiryStore;
  const ids: string[] = [];
  beforeAll(async () => {
    databaseUrl = await databases.create();
    store = createEnquiryStore(databaseUrl);
    for (const [i, [name, at]] of [
      ["Early", "2025-03-01T08:00:00Z"],
      ["Later", "2025-06-02T08:00:00Z"],
    ].entries()) {
      const saved = await store.save(row(name as string, at as string, `line one\nline\ttwo ${i}`), `nonce-${i}`, Date.now() + 1000);
      if (saved !== "replayed") ids.push(saved.saved.id);
    }
  });
  afterAll(async () => {
    await store.close();
    await databases.dispose();
  });

  it("lists every enquiry one per line, and since a date", async () => {
    const all = await runCli(["enquiries"], databaseUrl);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trim().split("\n")).toHaveLength(2);
    expect(all.stdout).toContain("line one line two 0");
    const since = await runCli(["enquiries", "--since", "2025-06-01"], databaseUrl);
    expect(since.stdout.trim().split("\n")).toEqual([expect.stringContaining("Later")]);
  });

  it("exports them as JSON with their consent", async () => {
    const json = await runCli(["enquiries", "--json"], databaseUrl);
    const list = JSON.parse(json.stdout) as { id: string; name: string; message: string; consent: { version: string } }[];
    expect(list.map((e) => e.name)).toEqual(["Early", "Later"]);
    expect(list[0]).toMatchObject({ message: "line one\nline\ttwo 0", consent: { version: "2025-01", at: "2025-03-01T08:00:00.000Z" } });
  });

  it("deletes one by id, and says so when there is none", async () => {
    const deleted = await runCli(["enquiries", "delete", ids[0] ?? ""], databaseUrl);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await store.list()).map((e) => e.id)).toEqual([ids[1]]);
    const again = await runCli(["enquiries", "delete", ids[0] ?? ""], databaseUrl);
    expect(again.code).toBe(1);
    expect((await runCli(["enquiries", "--since", "yesterday"], databaseUrl)).code).toBe(2);
  });
});
