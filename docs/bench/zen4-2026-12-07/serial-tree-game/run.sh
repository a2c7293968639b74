# The serial-tree comparison on the game set (tables kept from move to move), depth 20, 64 MiB, 2026-12-07 (night):
# the long set's script with the game set, without lazy SMP. From the repository root with a release build.
SET=game LAZY=no OUT=docs/bench/zen4-2026-12-07/serial-tree-game bash docs/bench/zen4-2026-12-07/serial-tree/run.sh
