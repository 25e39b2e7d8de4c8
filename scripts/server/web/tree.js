// The "Search tree" tab: asks /api/tree for the picture of a search (a position after
// some moves, or a textbook tree typed as nested lists) and shows the server's SVG.
"use strict";

async function drawTree(event) {
  if (event) event.preventDefault();
  const input = document.getElementById("tree-input").value.trim();
  const status = document.getElementById("tree-status");
  const picture = document.getElementById("tree-picture");
  const request = {prune: document.getElementById("tree-prune").checked};
  if (input.startsWith("[")) {
    request.tree = input;
  } else {
    request.moves = input;
    request.depth = Number(document.getElementById("tree-depth").value);
  }
  picture.dataset.ready = "0";
  status.textContent = "Searching…";
  status.classList.remove("error");
  try {
    const reply = await api("/api/tree", request);
    picture.innerHTML = reply.svg;  // the server's own SVG (escaped text, no script)
    status.textContent = `${reply.title}; principal variation: ${reply.pv.join(" ") || "none"}`;
    picture.dataset.ready = "1";
  } catch (e) {
    picture.replaceChildren();
    status.textContent = e.message;
    status.classList.add("error");
    picture.dataset.ready = "error";
  }
}

document.getElementById("tree-setup").addEventListener("submit", drawTree);
