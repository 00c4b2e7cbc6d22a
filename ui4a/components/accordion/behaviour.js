  /* The accordion's part of the runtime: a streamed patch never closes an open section. */
  part({
    keepAttribute: function (name, node) { return name === "open" && node.tagName === "DETAILS"; }
  });
