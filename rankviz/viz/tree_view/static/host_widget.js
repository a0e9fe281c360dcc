
// -- host: an anywidget (JupyterLab, Jupyter Notebook, VS Code, Colab, marimo) --
// The model's `data` is the drawing and its marks; `selected` is synced both
// ways; a fold asks Python (a custom message) to lay the tree out again.
// RV_HTML, the view's markup, is defined above this host by Python.

let widgetCount = 0;

export default {
  render({ model, el }) {
    el.innerHTML = RV_HTML;
    const root = el.querySelector(".rv-root");
    const key = `rankviz-widget-${++widgetCount}`;
    const send = (name, value) => {
      if (name === "select") {
        model.set("selected", value);
        model.save_changes();
      } else {
        model.send({ event: name, id: value });
      }
    };
    let cleanUp = null;
    const draw = () => {
      if (cleanUp) cleanUp();
      cleanUp = renderView(root, key, { ...model.get("data"), selected: model.get("selected") }, send);
    };
    draw();
    model.on("change:data", draw);
    model.on("change:selected", draw);
    return () => {
      model.off("change:data", draw);
      model.off("change:selected", draw);
      if (cleanUp) cleanUp();
      views.delete(key);
    };
  },
};
