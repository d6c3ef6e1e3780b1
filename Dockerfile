# syntax=docker/dockerfile:1
# verity as one static binary on a distroless base. The same image runs
# `verity serve` and `verity worker` (see docker-compose.yml).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Pure Go (modernc.org/sqlite), so the binary is static.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/verity ./cmd/verity \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/verity /verity
# A named volume mounted here starts with this directory's owner, so the
# nonroot user (65532) can write the data directory.
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV VERITY_DATA=/data
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["/verity"]
CMD ["serve", "--addr", "0.0.0.0:8080"]
