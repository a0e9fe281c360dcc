
// -- host: a Streamlit components-v2 component ---------------------------------
// Streamlit calls the default export on mount and whenever the data from
// Python changes, with the same DOM; what the reader does goes back as trigger
// values, to the Python callbacks.

export default function (component) {
  const { data, parentElement, setTriggerValue, key } = component;
  // The Python key (data.view_key) names the view: the component's own differs inside a fragment.
  const name = data.view_key || key;
  return renderView(parentElement.querySelector(".rv-root"), name, data, (n, value) => setTriggerValue(n, value));
}
