/**
 * A load balancer's view of a rolling restart: two production instances behind nginx
 * (Debian's, on loopback, with a configuration and prefix of the run's own), under a
 * closed-loop load through nginx the whole time. Each instance in turn gets SIGTERM, is
 * waited for until it exits, is started again on its port and waited for until its
 * readiness is 200; then the other. Judged: not one request through nginx fails (every
 * answer 200), each instance turned readiness 503 at once, exited 0 after its drain, and
 * served again once back.
 *
 * OSS nginx has no active health checks, so it never reads readiness: the drain keeps an
 * instance serving while anything that does read it (a Kubernetes Service, a cloud
 * balancer) takes it out, and nginx itself learns from a refused connection once the
 * drain is over, retrying the request on the other instance (`proxy_next_upstream error
 * timeout http_503`) and leaving the refused one out for `fail_timeout` (`max_fails=1`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { track } from "../harness/children.ts";
import { freePort } from "../harness/free-port.ts";
import { type ServerProcess, startServer } from "../harness/server-process.ts";
import { logFileOf, type RunContext, round } from "./context.ts";
import { Checks } from "./report.ts";
import { serverEnv } from "./server.ts";
import { exchange, type Outcome, sleep, startLoad, waitFor } from "./traffic.ts";
import { startControlledUpstream } from "./upstream.ts";

/** The drain the instances get: long enough for a balancer that reads readiness every second to see it twice. */
const DRAIN_MS = 2000;
const GRACE_MS = 10_000;
const CONNECTIONS = 16;

/** nginx's configuration: everything under `dir`, so no system file or service is touched. */
function nginxConf(dir: string, listen: number, instances: number[]): string {
  return `# The stand-in load balancer of the reliability run's shutdown section.
daemon off;
${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format balancer '$status $upstream_addr $upstream_status $request_time "$request"';
  access_log ${dir}/access.log balancer;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream portal {
${instances.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
}

async function startNginx(dir: string, listen: number, instances: number[]): Promise<ChildProcess> {
  await mkdir(dir, { recursive: true });
  const conf = path.join(dir, "nginx.conf");
  await writeFile(conf, nginxConf(dir, listen, instances));
  const child = track(spawn("nginx", ["-p", dir, "-e", path.join(dir, "error.log"), "-c", conf], { stdio: "ignore" }));
  const origin = `http://127.0.0.1:${listen}`;
  const up = await waitFor(async () => (await exchange(origin, { path: "/portal/healthz" }, false, 2000)).answer?.status === 200, 15_000);
  if (!up) throw new Error(`nginx did not answer on ${origin}: ${await readFile(path.join(dir, "error.log"), "utf8").catch(() => "")}`);
  return child;
}

const readinessOf = async (server: ServerProcess) =>
  (await exchange(server.origin, { path: "/portal/readyz" }, false, 5000)).answer?.status;

interface Restart {
  name: string;
  /** SIGTERM to exit. */
  drainedMs: number;
  code: number | null;
  /** Readiness answered 503 between the signal and the end of the drain. */
  sawDraining: boolean;
  /** Started again to readiness 200. */
  backMs: number;
}

export async function runRollingRestart(ctx: RunContext): Promise<{ checks: Checks; figures: string[]; headline: string; logs: string[] }> {
  const checks = new Checks();
  const upstream = await startControlledUpstream(ctx.site, ctx.workDir);
  const ports = [await freePort(), await freePort()];
  const names = ["instance a", "instance b"];
  const logs = names.map((name) => logFileOf(ctx, `rolling ${name}`));
  const start = (i: number) =>
    startServer({
      name: names[i] as string,
      logFile: logs[i] as string,
      cpus: ctx.serverCpus,
      env: serverEnv({
        API_BASE_URL: upstream.url,
        PORTAL_CLASSIFY: upstream.classifyJson,
        PORT: String(ports[i]),
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      }),
    });
  const servers: ServerProcess[] = [await start(0), await start(1)];
  const nginxDir = path.join(ctx.workDir, "nginx");
  let nginx: ChildProcess | undefined;
  let load: ReturnType<typeof startLoad> | undefined;
  const outcomes: Outcome[] = [];
  try {
    const listen = await freePort();
    nginx = await startNginx(nginxDir, listen, ports);
    const origin = `http://127.0.0.1:${listen}`;
    const paths = [
      "/portal/index.html",
      "/portal/about/index.html",
      "/portal/message/news/list.html",
      `/portal/message/news/${ctx.site.news[0]?.id ?? 1}`,
      "/api/portal/sys/menu/list",
      "/api/portal/message/news/list?pageIndex=1&pageMaxCount=10",
    ];
    load = startLoad({
      origin,
      connections: CONNECTIONS,
      timeoutMs: 30_000,
      next: (n) => ({ path: paths[n % paths.length] as string }),
      onOutcome: (o) => outcomes.push(o),
    });
    await sleep(ctx.short ? 2000 : 5000);

    const restarts: Restart[] = [];
    for (const i of [0, 1]) {
      const server = servers[i] as ServerProcess;
      const signalled = Date.now();
      server.child.kill("SIGTERM");
      const sawDraining = await waitFor(async () => (await readinessOf(server)) === 503, DRAIN_MS);
      const code = await Promise.race([server.exited, sleep(DRAIN_MS + GRACE_MS + 5000).then(() => "still running" as const)]);
      const drainedMs = Date.now() - signalled;
      if (code === "still running") throw new Error(`${server.name} did not exit within its drain and grace`);
      const restarted = Date.now();
      const again = await start(i);
      servers[i] = again;
      await waitFor(async () => (await readinessOf(again)) === 200, 30_000);
      restarts.push({ name: server.name, drainedMs, code, sawDraining, backMs: Date.now() - restarted });
      // Both back before the next goes: a rolling restart's one rule.
      await sleep(ctx.short ? 1000 : 3000);
    }
    await load.stop();
    load = undefined;

    const failed = outcomes.filter((o) => o.answer?.status !== 200);
    const access = (await readFile(path.join(nginxDir, "access.log"), "utf8")).trim().split("\n");
    // "$upstream_addr" holds a comma list when nginx tried a second instance.
    const retried = access.filter((line) => line.split(" ")[1]?.endsWith(",")).length;
    const served = ports.map((port) => access.filter((line) => line.includes(`127.0.0.1:${port}`)).length);

    checks.add("the load ran through both restarts (at least 200 requests)", outcomes.length >= 200, `${outcomes.length}`);
    checks.add(
      "no request through the balancer failed during the rolling restart",
      failed.length === 0,
      `${failed.length} failed: ${failed
        .slice(0, 5)
        .map((o) => `${o.spec.path}: ${o.error ?? o.answer?.status}`)
        .join("; ")}`,
    );
    for (const r of restarts) {
      checks.add(`${r.name}: readiness was 503 at once after SIGTERM`, r.sawDraining);
      checks.add(
        `${r.name}: exited 0 after its drain, within drain + grace`,
        r.code === 0 && r.drainedMs >= DRAIN_MS,
        `exit ${r.code} after ${r.drainedMs} ms`,
      );
    }
    checks.add(
      "both instances served through the balancer",
      served.every((n) => n > 0),
      served.join(" and "),
    );
    const stopped = await Promise.all(logs.map(async (file) => (await readFile(file, "utf8")).split('"msg":"stopped"').length - 1));
    checks.add(
      'each instance logged "stopped" once for its restart',
      stopped.every((n) => n === 1),
      stopped.join(", "),
    );

    const drains = restarts.map(
      (r) => `${r.name} SIGTERM to exit ${round(r.drainedMs / 1000, 1)} s, ready again ${round(r.backMs / 1000, 1)} s later`,
    );
    return {
      checks,
      headline: `rolling restart behind nginx: ${outcomes.length} requests, ${failed.length} failed; ${drains.join("; ")}`,
      figures: [
        `rolling restart behind nginx (drain ${DRAIN_MS / 1000} s): ${outcomes.length} requests, ${failed.length} failed`,
        `served by a ${served[0]}, b ${served[1]}; ${retried} retried on the other instance by nginx`,
        ...drains,
      ],
      logs: [...logs, path.join(nginxDir, "error.log")],
    };
  } finally {
    await load?.stop();
    if (nginx && nginx.exitCode === null) {
      nginx.kill("SIGQUIT");
      await new Promise((resolve) => nginx?.once("exit", resolve));
    }
    await Promise.all(servers.map((s) => s.stop()));
    await upstream.close();
  }
}
