// The settings dialog: shows the current settings, reports the saved ones. The key field is a
// password field; the key is never written anywhere else in the DOM.

export function createSettingsView(root, { getSettings, onSave }) {
  const dialog = root.querySelector("dialog.settings");
  const form = dialog.querySelector("form");
  const field = (name) => form.elements.namedItem(name);

  function fill(settings) {
    for (const name of ["base_url", "api_key", "model", "dialect"]) field(name).value = settings[name] ?? "";
    field("remember_key").checked = Boolean(settings.remember_key);
  }

  function read() {
    return {
      base_url: field("base_url").value.trim().replace(/\/+$/, ""),
      api_key: field("api_key").value,
      model: field("model").value.trim(),
      dialect: field("dialect").value,
      remember_key: field("remember_key").checked,
    };
  }

  root.querySelector("[data-testid=settings-open]").addEventListener("click", () => {
    fill(getSettings());
    dialog.showModal();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSave(read());
    dialog.close();
  });
  form.querySelector("button[value=cancel]").addEventListener("click", () => dialog.close());

  fill(getSettings());
}
