#!/usr/bin/env bash
# Installs the system packages Reelsmith renders with (Debian/Ubuntu): ffmpeg, espeak-ng, flite and festival
# (natural English voices), pocketsphinx with its US-English model, fluidsynth with a General MIDI soundfont
# (music beds), and fonts; plus pocketsphinx-testdata, the real recordings the speech tests and
# benchmark measure against; and Chromium, the real browser the Studio page is tested in. With
# --check-or-install it does nothing when everything is present.
# Elsewhere, install the equivalents yourself: ffmpeg >= 5, espeak-ng, flite, festival (+ the HTS slt voice),
# fluidsynth (+ a General MIDI soundfont), pocketsphinx (+ en-us model), DejaVu fonts, Chromium.
set -euo pipefail

packages=(ffmpeg espeak-ng flite festival festvox-us-slt-hts fluidsynth fluid-soundfont-gm pocketsphinx pocketsphinx-en-us pocketsphinx-testdata fonts-dejavu-core fonts-liberation2 chromium)
needed() {
  command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null && command -v espeak-ng >/dev/null \
    && command -v flite >/dev/null && command -v festival >/dev/null && command -v fluidsynth >/dev/null \
    && [ -f /usr/share/sounds/sf2/FluidR3_GM.sf2 ] \
    && command -v pocketsphinx_continuous >/dev/null && [ -d /usr/share/pocketsphinx/model/en-us ] && [ -d /usr/share/pocketsphinx/test/data ] \
    && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] && command -v chromium >/dev/null && return 1
  return 0
}

if [ "${1:-}" = "--check-or-install" ] && ! needed; then
  exit 0
fi

if ! command -v apt-get >/dev/null; then
  echo "Reelsmith needs: ffmpeg (with ffprobe), espeak-ng, flite, festival (+ festvox-us-slt-hts), fluidsynth (+ a GM soundfont), pocketsphinx with the en-us model, DejaVu fonts, Chromium." >&2
  echo "This is not a Debian-based system: install them with your package manager, then run again." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "Run as root (or install sudo) to install: ${packages[*]}" >&2
    exit 1
  fi
fi

echo "Installing system packages: ${packages[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2
