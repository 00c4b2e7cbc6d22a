// The component catalog from GET /studio/catalog, in one shape the inspector can rely on:
// {components: {name: {name, doc, children, fields: [field]}}, common: [field], theme: [field]}
// where a field is {name, kind, required, values, default, doc}.

function field(raw, name) {
  const f = raw && typeof raw === "object" ? raw : {};
  const values = Array.isArray(f.values) ? f.values : [];
  return {
    name: String(f.name || name || ""),
    kind: String(f.kind || (values.length ? "enum" : "str")),
    required: !!f.required,
    values,
    default: f.default === undefined ? null : f.default,
    doc: typeof f.doc === "string" ? f.doc : "",
  };
}

function fields(raw) {
  if (Array.isArray(raw)) return raw.map((f) => field(f)).filter((f) => f.name);
  if (raw && typeof raw === "object") return Object.keys(raw).map((name) => field(raw[name], name));
  return [];
}

export function normalizeCatalog(raw, themeFallback) {
  const data = raw && typeof raw === "object" ? raw : {};
  const list = Array.isArray(data.components)
    ? data.components
    : Object.keys(data.components || {}).map((name) => ({ name, ...data.components[name] }));
  const components = {};
  for (const c of list) {
    if (!c || typeof c.name !== "string") continue;
    components[c.name] = {
      name: c.name,
      doc: typeof c.doc === "string" ? c.doc : "",
      children: !!c.children,
      fields: fields(c.fields),
    };
  }
  const common = fields(data.common || data.common_fields);
  const theme = fields(data.theme);
  return {
    components,
    common: common.length ? common : [field({ name: "if", kind: "cond", doc: 'Show only when the condition holds: "key", "!key", "step=2".' })],
    theme: theme.length ? theme : fields(themeFallback),
  };
}

// What the inspector calls a field, where its spec name is terse.
const NAMES = {
  if: "Condition", on: "Action", req: "Required", opts: "Options", cols: "Columns",
  x: "X axis", y: "Y series", w: "Width", min: "Minimum", max: "Maximum", md: "Markdown",
  src: "Image URL", alt: "Alt text", bind: "State key", data: "Dataset", tabs: "Tabs",
  items: "Sections", submit: "Submit label", page: "Rows per page"
};

export function fieldLabel(name) {
  if (NAMES[name]) return NAMES[name];
  const words = name.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
