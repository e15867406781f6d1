# splendor-ai: the gRPC service in a slim image (docs/deploy.md).
#
#   docker build -t splendor-ai .
#   docker run --rm -p 50551:50551 splendor-ai                  # plaintext, no tokens: a warning is logged
#   docker run --rm -p 50551:50551 -p 9100:9100 -v "$PWD/secrets:/secrets:ro" \
#       -e SPLENDOR_AI_TLS_CERT=/secrets/server.pem -e SPLENDOR_AI_TLS_KEY=/secrets/server.key \
#       -e SPLENDOR_AI_TOKEN_FILE=/secrets/tokens -e SPLENDOR_AI_METRICS_PORT=9100 splendor-ai
#   docker run --rm -p 127.0.0.1:8080:8080 -e SPLENDOR_AI_HTTP_PORT=8080 splendor-ai   # + browsers
#
# Every flag of `splendor-ai serve` is also an environment variable (SPLENDOR_AI_<FLAG>).

# Stage 1: build wheels of the client, the server with its `web` extra (the HTTP port for
# browsers: SPLENDOR_AI_HTTP_PORT) and every dependency; the Cython cores need a compiler.
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --wheel-dir /wheels ./client '.[web]'

# Stage 2: the runtime, without a compiler or the sources.
FROM python:3.11-slim
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels 'splendor-ai[web]' \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --no-create-home splendor
USER splendor
# In a container the network is the container's: listen on every interface.
ENV SPLENDOR_AI_HOST=0.0.0.0 \
    SPLENDOR_AI_PORT=50551
# gRPC; and the HTTP port for browsers (Connect, gRPC-Web, the demo page), served when
# SPLENDOR_AI_HTTP_PORT=8080 is set (docs/deploy.md: it takes the same TLS and tokens).
EXPOSE 50551 8080
# With SPLENDOR_AI_TLS_CERT set it speaks TLS and checks the name that certificate carries
# (not "localhost"): a certificate from a public CA passes as it is; a private CA needs
# --ca (and mutual TLS --cert/--key): docker run --health-cmd, see docs/deploy.md.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 CMD ["splendor-ai", "health"]
ENTRYPOINT ["splendor-ai", "serve"]
