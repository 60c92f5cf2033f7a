# Reelsmith's image: one image for the API (`npm start`, RUN_WORKER=0 for API-only) and for workers
# (`build/cli/worker.js`). compose.yaml runs it with PostgreSQL and an S3-compatible store; docs/deploy.md.
# The system packages come from scripts/install-system-packages.sh, the one list README, CI and this image
# share (test/container-files.test.ts keeps it so).

# Build stage: every npm dependency, the service compiled to build/ and the client workspace (both by `npm ci`'s
# prepare scripts, with the dev tools), then the dev tools go.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the system packages, the app, and a user without privileges.
FROM node:20-bookworm-slim AS runtime
COPY scripts/install-system-packages.sh /tmp/install-system-packages.sh
RUN bash /tmp/install-system-packages.sh && rm -rf /var/lib/apt/lists/* /tmp/install-system-packages.sh
RUN groupadd --system reelsmith && useradd --system --gid reelsmith --create-home reelsmith \
  && mkdir -p /data && chown reelsmith:reelsmith /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
USER reelsmith
VOLUME ["/data"]
EXPOSE 8080
# Liveness only; load balancers should use GET /api/v1/ready (docs/deploy.md). Workers serve no HTTP: their
# compose service turns this off.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is the main process (not npm), so SIGTERM reaches the graceful shutdown.
CMD ["node", "build/cli/serve.js"]
