  /* The dialog's part of the runtime: open while its state key is true; closing it (Escape,
   * its button) sets the key false; a streamed patch never closes an open one. */
  function applyDialogs() {
    all("dialog[data-dialog]").forEach(function (dialog) {
      var open = !!state[dialog.getAttribute("data-dialog")] && !dialog.hidden;
      if (open && !dialog.open && dialog.isConnected) {
        dialog.showModal();
      } else if (!open && dialog.open) {
        dialog.close();
      }
    });
  }

  root.addEventListener("close", function (event) {
    var dialog = event.target;
    if (!dialog || dialog.tagName !== "DIALOG") return;
    var key = dialog.getAttribute("data-dialog");
    if (key && state[key]) change(key, false);
  }, true);

  part({
    apply: applyDialogs,
    keepAttribute: function (name, node) { return name === "open" && node.tagName === "DIALOG"; }
  });
