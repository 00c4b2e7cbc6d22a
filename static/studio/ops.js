// The edit operations POST /p/<id>/edit takes (the contract's `op` objects), built in one place.

export const ops = {
  set: (path, field, value) => ({ op: "set", path, field, value }),
  unset: (path, field) => ({ op: "unset", path, field }),
  move: (path, by) => ({ op: "move", path, by }),
  duplicate: (path) => ({ op: "duplicate", path }),
  remove: (path) => ({ op: "delete", path }),
  wrap: (path) => ({ op: "wrap", path, in: "card" }),
  theme: (field, value) => ({ op: "theme", field, value }),
  title: (value) => ({ op: "title", value }),
};
