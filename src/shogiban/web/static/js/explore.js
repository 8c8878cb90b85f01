// The analysis board's explored record: a tree of moves kept in the browser (issue 27).
//
// A node is {usi, forms, comment, game, children}: `forms` the move in every notation (from the
// server: the game's moves, or POST /api/positions/moves), `game` the game's ply for the moves of
// the game itself (they cannot be deleted), `children` the moves played after it, the first being
// the main line.  The root stands for the start position (no usi).  A path is the list of child
// indexes from the root.  The tree knows no rules: the moves were legal when the server gave them.
//
// The tree, the current path and the comments are kept in localStorage under one key per page,
// so that a reload finds them; undo restores the tree as it was before the last edit.

const VERSION = 1;
const UNDO_DEPTH = 50;

/** A new node. */
export function makeNode(usi, forms, game = null) {
  return { usi, forms: forms || null, comment: "", game, children: [] };
}

/** The tree of a game's moves ({usi, forms} each): one main line. */
export function gameTree(moves) {
  const root = makeNode(null, null, 0);
  let node = root;
  moves.forEach((move, index) => {
    const child = makeNode(move.usi, move.forms || null, index + 1);
    node.children.push(child);
    node = child;
  });
  return root;
}

/** The nodes along *path* from the root (the root first). */
export function nodesOf(root, path) {
  const nodes = [root];
  let node = root;
  for (const index of path) {
    node = node.children[index];
    if (!node) break;
    nodes.push(node);
  }
  return nodes;
}

/** The USI moves along *path*. */
export function usiOf(root, path) {
  return nodesOf(root, path).slice(1).map((node) => node.usi);
}

/** The path (cut to what exists) and the node it leads to. */
export function resolve(root, path) {
  const nodes = nodesOf(root, path);
  return { path: path.slice(0, nodes.length - 1), node: nodes[nodes.length - 1] };
}

/** The path of the game's *ply*, following the game's moves, or null when not in the tree. */
export function gamePath(root, ply) {
  const path = [];
  let node = root;
  for (let i = 1; i <= ply; i++) {
    const index = node.children.findIndex((child) => child.game === i);
    if (index < 0) return null;
    path.push(index);
    node = node.children[index];
  }
  return path;
}

/** Play *usi* after the node of *path*: the existing child, or a new variation. Returns the new
 * path and whether the tree changed. */
export function play(root, path, usi, forms) {
  const { path: here, node } = resolve(root, path);
  const index = node.children.findIndex((child) => child.usi === usi);
  if (index >= 0) return { path: [...here, index], changed: false };
  node.children.push(makeNode(usi, forms));
  return { path: [...here, node.children.length - 1], changed: true };
}

/** Delete the node of *path* and what follows it (not a move of the game). Returns the parent's path. */
export function remove(root, path) {
  if (!path.length) return null;
  const { node } = resolve(root, path);
  if (node.game) return null;
  const parent = resolve(root, path.slice(0, -1)).node;
  parent.children.splice(path[path.length - 1], 1);
  return path.slice(0, -1);
}

/** Make the line through *path* the main line at every branch; returns the node's new path. */
export function promote(root, path) {
  const nodes = nodesOf(root, path);
  for (let depth = 0; depth < path.length; depth++) {
    const parent = nodes[depth];
    const child = nodes[depth + 1];
    const index = parent.children.indexOf(child);
    if (index > 0) {
      parent.children.splice(index, 1);
      parent.children.unshift(child);
    }
  }
  return path.map(() => 0);
}

/** Whether *path* is the main line (the first child at every step). */
export function isMainLine(path) {
  return path.every((index) => index === 0);
}

/** The tree as plain data (no cached positions). */
function plain(node) {
  return { usi: node.usi, forms: node.forms, comment: node.comment || "", game: node.game,
    children: node.children.map(plain) };
}

function revive(data) {
  if (!data || typeof data !== "object" || !Array.isArray(data.children)) throw new Error("bad tree");
  const node = makeNode(typeof data.usi === "string" ? data.usi : null, data.forms || null,
    Number.isInteger(data.game) ? data.game : null);
  node.comment = typeof data.comment === "string" ? data.comment : "";
  node.children = data.children.map(revive);
  return node;
}

/** The tree as `POST /api/records/tree` takes it: the moves of the main line, each with its
 * comment and its variations (the alternatives to it, each a line of the same shape). */
export function treeBody(root, startSfen) {
  return { start_sfen: startSfen, moves: serialiseLine(root) };
}

/** The moves of the main line after *parent*, each with its alternatives as variations. */
function serialiseLine(parent) {
  const moves = [];
  let node = parent;
  while (node.children.length) {
    const [main, ...others] = node.children;
    moves.push({
      usi: main.usi, comment: main.comment || "",
      variations: others.map((other) => {
        const first = { usi: other.usi, comment: other.comment || "", variations: [] };
        return [first, ...serialiseLine(other)];
      }),
    });
    node = main;
  }
  return moves;
}

/** Explorations kept in localStorage under *key*, with undo. */
export class Exploration {
  constructor(key, moves) {
    this.key = key;
    this.moves = moves; // the game's moves, to tell a stale tree from this page's
    this.root = gameTree(moves);
    this.path = moves.map(() => 0);
    this.undoStack = [];
    this.load();
  }

  load() {
    try {
      const text = localStorage.getItem(this.key);
      if (!text) return;
      const data = JSON.parse(text);
      if (data.version !== VERSION) return;
      const root = revive(data.root);
      // The game's moves must all be there, as they were.
      const path = gamePath(root, this.moves.length);
      if (!path || usiOf(root, path).join(" ") !== this.moves.map((m) => m.usi).join(" ")) return;
      this.root = root;
      this.path = resolve(root, Array.isArray(data.path) ? data.path.filter(Number.isInteger) : []).path;
    } catch (error) {
      // A tree that does not read is forgotten: the game's moves are shown.
    }
  }

  save() {
    try {
      localStorage.setItem(this.key, JSON.stringify({ version: VERSION, root: plain(this.root), path: this.path }));
    } catch (error) {
      // Storage full or refused: the exploration lives until the page is left.
    }
  }

  /** Remember the tree before an edit. */
  checkpoint() {
    this.undoStack.push(JSON.stringify({ root: plain(this.root), path: this.path }));
    if (this.undoStack.length > UNDO_DEPTH) this.undoStack.shift();
  }

  undo() {
    const last = this.undoStack.pop();
    if (!last) return false;
    const data = JSON.parse(last);
    this.root = revive(data.root);
    this.path = resolve(this.root, data.path).path;
    this.save();
    return true;
  }

  get node() {
    return resolve(this.root, this.path).node;
  }

  /** Go to *path* (cut to what exists). */
  go(path) {
    this.path = resolve(this.root, path).path;
    this.save();
  }

  play(usi, forms) {
    const snapshot = JSON.stringify({ root: plain(this.root), path: this.path });
    const result = play(this.root, this.path, usi, forms);
    if (result.changed) {
      this.undoStack.push(snapshot);
      if (this.undoStack.length > UNDO_DEPTH) this.undoStack.shift();
    }
    this.path = result.path;
    this.save();
    return result.changed;
  }

  remove() {
    if (!this.path.length || this.node.game) return false;
    this.checkpoint();
    this.path = remove(this.root, this.path);
    this.save();
    return true;
  }

  promote() {
    if (isMainLine(this.path)) return false;
    this.checkpoint();
    this.path = promote(this.root, this.path);
    this.save();
    return true;
  }

  comment(text) {
    this.node.comment = text;
    this.save();
  }
}
