#!/usr/bin/env bash
# `npm run image`: builds the Containerfile into localhost/patient-data-access:<package.json version>
# with podman (or docker where podman is absent) and prints that tag last
# (docs/operations.md#the-container-image).
#
#   NODE_IMAGE   the base (default docker.io/library/node:24-bookworm-slim; here, with no registry:
#                localhost/pdas-node-base:24-bookworm from scripts/container-base.sh)
#   CA_BUNDLE    a CA bundle for npm inside the build, passed as the build secret `ca` (default:
#                NODE_EXTRA_CA_CERTS, else /etc/ssl/certs/ca-certificates.crt when present)
#   IMAGE_TAG    the tag to make instead of localhost/patient-data-access:<version>
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_IMAGE=${NODE_IMAGE:-docker.io/library/node:24-bookworm-slim}
version=$(node -p 'require("./package.json").version')
tag=${IMAGE_TAG:-localhost/patient-data-access:$version}

args=(build --network host --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$tag" -f Containerfile)
if command -v podman >/dev/null 2>&1; then
  # runc: crun fails on these machines' cgroups; low ulimits as the machines allow. --format docker keeps
  # HEALTHCHECK and STOPSIGNAL, which the OCI image format has no field for. Open files: 1024, but up to
  # 4096 for a process that asks, as node does at its start: npm ci from a warm cache opened more than
  # 1024 at once and failed with EMFILE (the bare-base image's build, 2026-11-28).
  engine=(podman)
  [ -x /usr/sbin/runc ] && engine+=(--runtime /usr/sbin/runc)
  args+=(--format docker --ulimit nofile=1024:4096 --ulimit nproc=1000:1000)
elif command -v docker >/dev/null 2>&1; then
  engine=(docker)
  export DOCKER_BUILDKIT=1
else
  echo "image: neither podman nor docker is installed" >&2
  exit 1
fi

# npm inside the build reaches the registry through the same TLS-inspecting proxy as this machine; the bundle
# is a secret (mounted for the npm ci steps, in no layer), never a file copied into the image.
CA=${CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}}
[ -s "$CA" ] && args+=(--secret "id=ca,src=$CA")

echo "image: ${engine[*]} ${args[*]} ."
if ! "${engine[@]}" "${args[@]}" .; then
  # The usual reason on a machine that reaches no container registry: the base could not be pulled.
  if ! "${engine[@]}" image inspect "$NODE_IMAGE" >/dev/null 2>&1; then
    echo "image: the base $NODE_IMAGE is not here and could not be pulled. Where no registry is reachable, build a local one:" >&2
    echo "image:   bash scripts/container-base.sh && NODE_IMAGE=localhost/pdas-node-base:24-bookworm npm run image" >&2
  fi
  exit 1
fi
echo "$tag"
