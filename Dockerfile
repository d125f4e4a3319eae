# memharness as a container: a static bench binary on a distroless base,
# running as a non-root user. Build: docker build -t memharness .
# Configs are baked in under /app/configs; mount run directories at /runs.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/bench ./cmd/bench && \
    CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/bench-sql ./cmd/bench-sql

FROM gcr.io/distroless/static-debian12:nonroot
WORKDIR /app
COPY --from=build /out/bench /out/bench-sql /usr/local/bin/
COPY --from=build /src/configs /app/configs
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/bench"]
