"""Tools for the project's own data and experiments: book building, golden moves,
lesson experiments, the c4 driver (build_c4.sh, c4_positions.cpp)."""
