#!/usr/bin/env bash
# Builds Christophe Steininger's c4 Connect Four solver (github.com/ChristopheSteininger/c4)
# with the position driver c4_positions.cpp beside this script, for scripts.bench_solver --c4.
# A measuring instrument, never part of the package.
# Usage: build_c4.sh SOURCE [OUT_DIR]
#   SOURCE: a git directory of that repository (e.g. what the library's fetch returns) or a
#           checkout of it
#   OUT_DIR: where to build (default: a fresh temporary directory); prints the binary's path.
# Settings patched in src/solver/settings.h: 7x6 board, ONE search thread (c4 defaults to
# every core; one thread makes CPU times comparable with the single-threaded solvers) and a
# 16,777,259-entry table (128 MiB, about the size of ours and Pons'; c4's default is 1 GiB).
# Compiled as c4's CMake OPTIMISE mode compiles: -O3 -flto, NDEBUG.
set -eu
src=${1:?usage: build_c4.sh SOURCE [OUT_DIR]}
out=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ ! -x "$out/c4_positions" ]; then
  if [ -d "$src/src/solver" ]; then
    cp -r "$src/src" "$out/"
  else
    git --git-dir="$src" archive HEAD src | tar x -C "$out"
  fi
  settings="$out/src/solver/settings.h"
  sed -i -E 's/(BOARD_WIDTH = )[0-9]+/\17/; s/(BOARD_HEIGHT = )[0-9]+/\16/' "$settings"
  sed -i -E 's/(NUM_THREADS = )[0-9]+/\11/; s/(NUM_TABLE_ENTRIES = )[0-9]+/\116777259/' "$settings"
  grep -q "NUM_THREADS = 1;" "$settings" && grep -q "NUM_TABLE_ENTRIES = 16777259;" "$settings"
  g++ -std=c++20 -O3 -flto -DNDEBUG -pthread -I"$out/src" $(find "$out/src/solver" -name "*.cpp") \
      "$here/c4_positions.cpp" -o "$out/c4_positions"
fi
echo "$out/c4_positions"
