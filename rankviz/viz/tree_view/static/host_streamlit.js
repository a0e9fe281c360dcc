
// -- host: a Streamlit components-v2 component ---------------------------------
// Streamlit calls the default export on mount and whenever the data from
// Python changes, with the same DOM; what the reader does goes back as trigger
// values, to the Python callbacks.

export default function (component) {
  const { data, parentElement, setTriggerValue, key } = component;
  return renderView(parentElement.querySelector(".rv-root"), key, data, (name, value) => setTriggerValue(name, value));
}
