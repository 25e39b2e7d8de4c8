// The board and the analysis's scores, drawn: one file for the page of `connectx serve`
// (index.html loads it before app.js) and the notebook widget (scripts/server/view.py
// puts it before widget.js in the widget's ES module). Plain functions of data, no
// requests: each caller fetches the state its own way (the page over HTTP, the widget from
// the kernel). Boards are Kaggle's flat lists (row 0 at the top); columns are 0-based in
// the data and shown 1-based.
"use strict";

const MARK_NAME = {1: "red", 2: "yellow"};

// Seconds as the page shows them: milliseconds below one second.
function formatTime(t) {
  return t < 1 ? `${(1000 * t).toFixed(1)} ms` : `${t.toFixed(2)} s`;
}

function show(el, text, isError) {
  el.textContent = text;
  el.classList.toggle("error", !!isError);
}

// Draw a Kaggle flat board (row 0 at the top) into `el`; `onColumn(c)` makes columns clickable.
function renderBoard(el, board, cfg, last, onColumn) {
  el.replaceChildren();
  el.style.setProperty("--columns", cfg.columns);
  for (let c = 0; c < cfg.columns; c++) {
    const col = document.createElement("div");
    col.className = "column";
    col.dataset.col = c;
    col.title = `column ${c + 1}`;
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = c + 1;
    col.appendChild(label);
    for (let r = 0; r < cfg.rows; r++) {
      const idx = c + r * cfg.columns;
      const cell = document.createElement("div");
      cell.className = "cell" + (board[idx] ? ` p${board[idx]}` : "") + (idx === last ? " last" : "");
      cell.dataset.index = idx;
      cell.dataset.mark = board[idx];
      col.appendChild(cell);
    }
    if (onColumn) col.addEventListener("click", () => onColumn(c));
    el.appendChild(col);
  }
}

// The flat index of the stone that `column` added between two boards (or -1).
function landed(before, after, column, columns) {
  for (let i = column; i < after.length; i += columns) {
    if (after[i] && !before[i]) return i;
  }
  return -1;
}

// The flat index of the top stone of `column` (the one last played there), or -1.
function topStone(board, column, columns) {
  for (let i = column; i < board.length; i += columns) {
    if (board[i]) return i;
  }
  return -1;
}

function scoreLabel(s) {
  if (s.outcome === "draw") return "draw";
  if (s.outcome === "eval") return `heuristic value ${s.score}`;
  return `${s.outcome} in ${s.in}`;
}

function alphabetaLine(sc) {
  // alphabeta's principal variation from this column (columns numbered from 1)
  if (!sc.pv || !sc.pv.length) return "";
  return `; line ${sc.pv.map((x) => x + 1).join(" ")}`;
}

// One cell of the scores row under the board: column `c`'s score `sc` (an entry of the
// analysis's `scores`: null where the column is full or was not reached), `legal` the
// position's legal columns, `exact` true for the solver's scores (else alphabeta's).
function scoreCell(sc, c, legal, exact) {
  const cell = document.createElement("div");
  cell.dataset.col = c;
  if (sc === null) {
    cell.className = "score none";
    cell.dataset.score = "";
    cell.textContent = legal.includes(c) ? "?" : "";
    cell.title = legal.includes(c) ? "not reached within the time limit" : "full";
    return cell;
  }
  cell.className = `score ${sc.outcome}` +
                   (sc.outcome === "eval" ? (sc.score >= 0 ? " ahead" : " behind") : "");
  cell.dataset.score = sc.score;
  cell.dataset.outcome = sc.outcome;
  const main = document.createElement("b");
  main.textContent = exact ? (sc.score > 0 ? `+${sc.score}` : `${sc.score}`) :
    (sc.outcome === "eval" ? `${sc.score}` : sc.outcome[0].toUpperCase());
  const sub = document.createElement("small");
  sub.textContent = sc.outcome === "eval" ? `depth ${sc.depth}` : scoreLabel(sc);
  cell.append(main, sub);
  cell.title = `column ${c + 1}: ${scoreLabel(sc)}` +
               (sc.depth ? ` (alphabeta, depth ${sc.depth})` : "") + alphabetaLine(sc);
  return cell;
}

// What the scores row's status line says of an analysis `reply` of the position `s`.
function analysisText(reply, s) {
  const done = reply.scores.filter((x) => x !== null).length;
  const what = reply.method === "solver" ? "exact scores (solver)" :
    "alphabeta evaluation (the board does not fit the exact solver)";
  let text = `${what} for ${MARK_NAME[s.to_move]} to move, ${formatTime(reply.time)}`;
  if (!reply.complete) {
    text += reply.method === "solver" ?
      ` — cut short by the ${reply.time_limit} s limit: ${done} of ${s.legal.length} columns solved` :
      " — heuristic estimates where no result is proven";
  }
  return text;
}
