"""``FilePicker``: a button that opens the browser's file chooser and sends the chosen file to the
kernel, labelled with its description alone.

ipywidgets' ``FileUpload`` always writes the number of files it holds after its description
("Resume from a file (0)"), and a board that empties it after reading a file (so the same file
can be chosen again) reads "(0)" for ever. ``FilePicker`` keeps FileUpload's Python side:
``value`` is a tuple of one dict per chosen file (``name``, ``type``, ``size``,
``last_modified`` in ms, ``content`` a memoryview), empty until a file is chosen; observe it,
then set it to ``()``. Its front end is a few lines of plain JavaScript (anywidget), drawn as a
Jupyter button (``icon`` a Font Awesome name, ``tooltip``, ``disabled``, ``accept``).
"""

from __future__ import annotations

import anywidget
import traitlets

_ESM = """
function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "jupyter-widgets jupyter-button widget-button widget-upload";
  button.style.width = "auto";  // as wide as its words (a Jupyter button's fixed width cut them)
  button.style.maxWidth = "100%";
  const input = document.createElement("input");
  input.type = "file";
  input.style.display = "none";
  const draw = () => {
    button.textContent = "";
    const icon = model.get("icon");
    if (icon) {
      const i = document.createElement("i");
      i.className = `fa fa-${icon}`;
      button.appendChild(i);
    }
    button.appendChild(document.createTextNode(model.get("description")));
    button.title = model.get("tooltip");
    button.disabled = model.get("disabled");
    input.accept = model.get("accept");
  };
  button.addEventListener("click", () => { input.value = ""; input.click(); });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    const content = new DataView(await file.arrayBuffer());
    model.set("value", [{ name: file.name, type: file.type, size: file.size,
                          last_modified: file.lastModified, content }]);
    model.save_changes();
  });
  for (const name of ["description", "icon", "tooltip", "disabled", "accept"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
  el.append(button, input);
}
export default { render };
"""


class FilePicker(anywidget.AnyWidget):
    """A "choose a file" button whose label is ``description`` (see the module docstring)."""

    _esm = _ESM
    description = traitlets.Unicode("Choose a file").tag(sync=True)
    icon = traitlets.Unicode("upload").tag(sync=True)
    tooltip = traitlets.Unicode("").tag(sync=True)
    accept = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    value = traitlets.Tuple().tag(sync=True)
