# The site's container image (docs/operations.md, "Production"). Three stages: the build with every
# dependency, the production dependencies alone, and the image that runs: dist/, those
# dependencies and the demo site, as the unprivileged `node` user, started by node itself.
# RUN steps use paths relative to WORKDIR: scripts/image-steps.ts runs these same steps on
# a copy of the tree where no Docker engine is (CI), and refuses a Dockerfile it cannot.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# The data folder, to be copied into the image owned by the user that writes to it.
RUN mkdir -p data

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No compiler needed: better-sqlite3 and sharp ship their binaries for linux-x64 and arm64 (glibc) in the package.
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
# METRICS_HOST 0.0.0.0: the orchestrator's probes and Prometheus reach the internal listener from outside the container.
ENV NODE_ENV=production PORT=3000 METRICS_PORT=9464 METRICS_HOST=0.0.0.0 MALLOC_ARENA_MAX=2
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/content ./content
COPY --from=build --chown=node:node /app/data ./data
USER node
EXPOSE 3000 9464
VOLUME ["/app/data"]
# Liveness only (the public /portal/healthz, there whatever METRICS_PORT says): readiness
# may be 503 while draining or with the CMS down and nothing cached, which is no reason to
# restart. Slim images have no curl: node itself asks.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/portal/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node directly, with package.json's start flags and environment (decisions 8 and 9): no npm between the signal and
# the server.
CMD ["node", "--max-semi-space-size=4", "dist/server/index.js"]
