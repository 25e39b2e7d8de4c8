// A driver for Christophe Steininger's c4 solver (github.com/ChristopheSteininger/c4),
// compiled against its solver sources by scripts/tools/build_c4.sh: a measuring
// instrument for scripts.bench_solver --c4, never part of the package.
//
// Reads one position a line on stdin (a move string, 1-based columns, as Pascal Pons'
// c4solver reads them; anything after the moves is ignored) and prints "moves score",
// the strong score of the side to move in Pons' scale (c4 uses the same one), solving
// every line with one Solver (an empty line: the empty board): its transposition table is kept from line to line, as
// Pons' main does.
#include <iostream>
#include <sstream>
#include <string>

#include "solver/position.h"
#include "solver/solver.h"

int main() {
    std::ios::sync_with_stdio(false);
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string moves;
        in >> moves;  // an empty line is the empty board, as Pons' c4solver reads it
        Position pos{};
        bool ok = true;
        for (char ch : moves) {
            int col = ch - '1';
            if (col < 0 || col >= BOARD_WIDTH || !pos.is_move_valid(col)) {
                ok = false;
                break;
            }
            pos.move(col);
        }
        if (!ok) {
            std::cout << moves << " invalid" << std::endl;
            continue;
        }
        std::cout << moves << " " << solver.solve_strong(pos) << std::endl;
    }
    return 0;
}
