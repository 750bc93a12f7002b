# syntax=docker/dockerfile:1
# The service's image: Node 26 (the active LTS), production dependencies only, a non-root user, and
# nothing written outside the records a deployment mounts, so it runs on a read-only root filesystem.
# Build: docker build -t reference-records .   Run and deploy: docs/operations.md, "Deployment".

# Every dependency, and the TypeScript build. Scripts are off while installing: the project's own
# `prepare` would build before the sources are copied, and no dependency needs its install script.
FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY data ./data
RUN npm run build

# The production dependencies alone, installed from the same lock file.
FROM node:26-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# What the service reads at run time, owned by root and read-only to the user it runs as.
FROM node:26-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json CHANGELOG.md LICENSE ./
COPY data ./data
COPY docs ./docs
COPY public ./public
COPY scripts/healthcheck.js ./scripts/healthcheck.js
# Where a deployment mounts its records (a directory, so that a file replaced by a rename on the host
# is seen: RECORDS_FILE=/records/records.ndjson). Without it the bundled sample is served.
RUN mkdir /records
# The node image's unprivileged user (uid 1000).
USER node
EXPOSE 8080
# /readyz through a small Node script (the slim image has no curl, and no shell is needed): healthy
# once the records are loaded. The start period leaves room for a large snapshot's first load.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 CMD ["node", "scripts/healthcheck.js"]
# Node runs as PID 1, with no init: the service installs its own SIGTERM and SIGINT handlers
# (close-with-grace), which drain requests in flight and exit 0, and it starts no child process.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
