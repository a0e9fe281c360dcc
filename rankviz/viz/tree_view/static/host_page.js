
// -- host: one self-contained HTML page (export_tree(tree, "html")) ------------
// The data sits in the page as JSON; with no Python behind it a click only
// outlines the node, and folds hide subtrees on the drawing (data.local_folds).

{
  const root = document.querySelector(".rv-root");
  let data = JSON.parse(document.getElementById("rv-data").textContent);
  const send = (name, value) => {
    if (name === "select") {
      data = { ...data, selected: value };
      renderView(root, "page", data, send);
    }
  };
  renderView(root, "page", data, send);
}
