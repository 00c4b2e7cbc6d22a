// Reading a UI4A spec on the studio's side: the node at a JSON pointer, and how to name it.

export function nodeAt(spec, pointer) {
  if (!spec || typeof pointer !== "string" || !pointer.startsWith("/root")) return null;
  let node = spec;
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!node || typeof node !== "object") return null;
    node = Array.isArray(node) ? node[Number(key)] : node[key];
  }
  return node && typeof node === "object" && !Array.isArray(node) ? node : null;
}

// The pointer of the node's container and its index there: null for the root.
export function parentOf(pointer) {
  const m = /^(.*)\/c\/([0-9]+)$/.exec(pointer || "");
  return m ? { parent: m[1], index: Number(m[2]) } : null;
}

// The text a node shows first: what a designer calls it ("chart 'Revenue'").
const NAMING_FIELDS = ["label", "title", "text", "submit", "alt", "value"];

export function describe(node, fallbackKind, fallbackLabel) {
  const kind = (node && typeof node.t === "string" && node.t) || fallbackKind || "element";
  let name = "";
  for (const field of NAMING_FIELDS) {
    if (node && typeof node[field] === "string" && node[field].trim()) {
      name = node[field].trim();
      break;
    }
  }
  name = name || fallbackLabel || "";
  if (name.length > 32) name = name.slice(0, 31) + "…";
  return name ? kind + " '" + name + "'" : kind;
}
