// The notebook widget (scripts/server/view.py): this file follows board.js in one ES
// module, so renderBoard, scoreCell, analysisText, ... are board.js's own. The kernel
// holds the game (scripts/server/notebook.py's Session); its `state` trait is what is
// drawn, and every click is a message {action, ...} to the kernel, which answers with a
// new state. Stepping along a line is local: the state carries the line's boards.

const WIDGET_HTML = `
<div class="cx-controls">
  <span class="cx-group cx-play-only"><button type="button" class="cx-new">New game</button>
    <button type="button" class="cx-undo">Undo</button></span>
  <span class="cx-group cx-watch-only"><button type="button" class="cx-step">Next move</button>
    <button type="button" class="cx-run">To the end</button>
    <button type="button" class="cx-restart">Restart</button></span>
  <span class="cx-group cx-replay-only">
    <button type="button" class="cx-first" title="start">«</button>
    <button type="button" class="cx-back" title="back">◀</button>
    <span class="cx-pos">0 / 0</span>
    <button type="button" class="cx-forward" title="forward">▶</button>
    <button type="button" class="cx-last" title="end">»</button>
    <select class="cx-game"></select></span>
  <label class="cx-group cx-live-only"><input type="checkbox" class="cx-analyze"> Analyse</label>
  <span class="cx-group"><button type="button" class="cx-tree-draw">Search tree</button>
    <label>depth <input type="number" class="cx-depth" value="2" min="1" max="4"></label></span>
</div>
<div class="cx-game-area">
  <div><div class="board" data-busy="0" data-moves=""></div><div class="scores" hidden></div></div>
  <div class="cx-side">
    <p class="cx-status" role="status"></p>
    <p class="cx-verdict" hidden></p>
    <p class="cx-analysis-status note"></p>
    <div class="line" hidden>
      <p class="cx-line-text"></p>
      <p><button type="button" class="cx-line-back" title="back along the line">◀</button>
        <span class="cx-line-pos">0 / 0</span>
        <button type="button" class="cx-line-forward" title="forward along the line">▶</button>
        <small>step through the line on the board (click a score for its column's line)</small></p>
    </div>
    <ol class="cx-history"></ol>
  </div>
</div>
<p class="cx-tree-title note"></p>
<div class="tree-picture cx-tree" hidden></div>`;

function renderWidget({model, el}) {
  const root = document.createElement("div");
  root.className = "connectx connectx-widget";
  root.innerHTML = WIDGET_HTML;  // a fixed template: the data goes in as text below
  el.appendChild(root);
  const q = (cls) => root.querySelector(`.${cls}`);
  const send = (message) => model.send(message);
  const line = {key: "", pos: 0};  // the line shown and how far along it the board is

  const bind = (cls, message) => q(cls).addEventListener("click", () => send(message()));
  bind("cx-new", () => ({action: "new"}));
  bind("cx-restart", () => ({action: "new"}));
  bind("cx-undo", () => ({action: "undo"}));
  bind("cx-step", () => ({action: "step"}));
  bind("cx-run", () => ({action: "run"}));
  const pos = () => model.get("state").replay.pos;
  bind("cx-first", () => ({action: "seek", pos: 0}));
  bind("cx-back", () => ({action: "seek", pos: pos() - 1}));
  bind("cx-forward", () => ({action: "seek", pos: pos() + 1}));
  bind("cx-last", () => ({action: "seek", pos: model.get("state").replay.length}));
  bind("cx-tree-draw", () => ({action: "tree", depth: Number(q("cx-depth").value)}));
  q("cx-game").addEventListener("change", () =>
    send({action: "game", index: Number(q("cx-game").value)}));
  q("cx-analyze").addEventListener("change", () =>
    send({action: "analyze", on: q("cx-analyze").checked}));
  q("cx-line-back").addEventListener("click", () => stepLine(line.pos - 1));
  q("cx-line-forward").addEventListener("click", () => stepLine(line.pos + 1));

  function drawBoard(s) {
    const board = q("board");
    const mine = s.mode === "play" && !s.over && !s.busy && s.to_move === s.human;
    if (line.pos > 0 && s.line) {  // a preview along the line: the game is unchanged
      const k = line.pos;
      renderBoard(board, s.line.frames[k - 1], s.config,
                  topStone(s.line.frames[k - 1], s.line.moves[k - 1], s.config.columns), null);
    } else {
      renderBoard(board, s.board, s.config, s.last,
                  mine ? (c) => send({action: "play", column: c}) : null);
    }
    board.classList.toggle("your-turn", mine && line.pos === 0);
    board.dataset.preview = String(line.pos);
    board.dataset.moves = s.moves.join(",");
    board.dataset.busy = s.busy ? "1" : "0";
    board.dataset.over = s.over ? "1" : "0";
    board.dataset.winner = s.winner;
    board.dataset.mode = s.mode;
  }

  function stepLine(k) {
    const s = model.get("state");
    if (!s.line) return;
    line.pos = Math.max(0, Math.min(s.line.moves.length, k));
    drawBoard(s);
    q("cx-line-pos").textContent = `${line.pos} / ${s.line.moves.length}`;
    q("cx-line-back").disabled = line.pos === 0;
    q("cx-line-forward").disabled = line.pos >= s.line.moves.length;
  }

  function drawScores(s) {
    const box = q("scores");
    const a = s.analysis;
    box.hidden = !a;
    box.replaceChildren();
    box.dataset.ready = a ? "1" : "0";
    show(q("cx-analysis-status"), "");
    if (!a) return;
    box.style.setProperty("--columns", s.config.columns);
    const exact = a.method === "solver";
    a.scores.forEach((sc, c) => {
      const cell = scoreCell(sc, c, s.legal, exact);
      if (sc !== null && exact && !a.judged) {
        cell.addEventListener("click", () => send({action: "line", column: c}));
      }
      if (s.replay && s.replay.next === c) {
        cell.classList.add("played");
        cell.title += " (played next)";
      }
      box.appendChild(cell);
    });
    box.dataset.complete = a.complete ? "1" : "0";
    const judged = `exact scores of ${MARK_NAME[s.to_move]}'s columns (the judge's); ` +
                   "outlined: the move played";
    show(q("cx-analysis-status"), a.judged ? judged : analysisText(a, s));
  }

  function drawLine(s) {
    const box = q("line");
    box.hidden = !s.line;
    if (!s.line) {
      line.key = "";
      line.pos = 0;
      return;
    }
    const key = JSON.stringify([s.moves, s.line.column, s.line.moves]);
    if (key !== line.key) {
      line.key = key;
      line.pos = 0;
    }
    const text = q("cx-line-text");
    show(text, `Line of column ${s.line.column + 1} (${scoreLabel(s.line.score)}): ` +
               s.line.moves.map((c) => c + 1).join(" ") +
               (s.line.complete ? "" : " … (cut short by the time limit)"));
    text.dataset.moves = s.line.moves.join(",");
    text.dataset.column = s.line.column;
    text.dataset.complete = s.line.complete ? "1" : "0";
    [...q("scores").children].forEach((cell) =>
      cell.classList.toggle("selected", Number(cell.dataset.col) === s.line.column));
  }

  function drawReplay(s) {
    const r = s.replay;
    const verdict = q("cx-verdict");
    verdict.hidden = !r || !r.verdict;
    if (!r) return;
    q("cx-pos").textContent = `${r.pos} / ${r.length}`;
    q("board").dataset.pos = r.pos;
    verdict.textContent = r.verdict ? `Move ${r.pos}: ${r.verdict}` : "";
    const kind = r.verdict && r.verdict.match(/: (perfect|good|mistake|not judged|no verdict)/);
    verdict.dataset.verdict = kind ? kind[1] : "";
    const select = q("cx-game");
    select.hidden = r.games.length < 2;
    if (select.options.length !== r.games.length) {
      select.replaceChildren(...r.games.map((label, i) => {
        const o = document.createElement("option");
        o.value = i;
        o.textContent = label;
        return o;
      }));
    }
    select.value = r.game;
    q("cx-first").disabled = q("cx-back").disabled = s.busy || r.pos === 0;
    q("cx-forward").disabled = q("cx-last").disabled = s.busy || r.pos >= r.length;
  }

  function drawTree(s) {
    const picture = q("cx-tree");
    picture.hidden = !s.tree;
    picture.dataset.ready = s.tree ? "1" : "0";
    if (!s.tree) {
      picture.replaceChildren();
      q("cx-tree-title").textContent = "";
      return;
    }
    picture.innerHTML = s.tree.svg;  // the kernel's own SVG (escaped text, no script)
    q("cx-tree-title").textContent =
      `${s.tree.title}; principal variation: ${s.tree.pv.join(" ") || "none"}`;
  }

  function update() {
    const s = model.get("state");
    root.dataset.mode = s.mode;
    drawLine(s);
    drawBoard(s);
    drawScores(s);
    drawLine(s);  // again: the selected score's outline
    if (s.line) stepLine(line.pos);
    drawReplay(s);
    drawTree(s);
    q("cx-analyze").checked = s.analyzing;
    const status = q("cx-status");
    show(status, s.busy ? "Thinking…" : s.status, s.error);
    status.dataset.error = s.error ? "1" : "0";
    const history = q("cx-history");
    history.replaceChildren(...s.history.map((text, i) => {
      const li = document.createElement("li");
      li.textContent = text;
      if (s.replay) {
        li.classList.toggle("current", i === s.replay.pos - 1);
        li.addEventListener("click", () => send({action: "seek", pos: i + 1}));
      }
      return li;
    }));
    for (const b of root.querySelectorAll(".cx-controls button")) {
      if (!b.closest(".cx-replay-only")) b.disabled = s.busy;
    }
  }

  model.on("change:state", update);
  update();
  return () => model.off("change:state", update);
}

export default {render: renderWidget};
