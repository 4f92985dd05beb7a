# Sourced by the Containerfile's steps that reach the npm registry (docs/operations.md#the-container-image).
# Node and npm trust their own CA list, not the system's: a TLS-inspecting proxy's CA comes in as the
# build secret `ca` (npm run image passes it; it is in no layer), else from the base's own bundle
# unless the base already names one in NODE_EXTRA_CA_CERTS.
if [ -s /run/secrets/ca ]; then
  export NODE_EXTRA_CA_CERTS=/run/secrets/ca npm_config_cafile=/run/secrets/ca
elif [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -s /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
