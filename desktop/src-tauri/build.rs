fn main() {
    // Declaring the app's own commands puts them under the capabilities: none is reachable unless granted.
    let manifest = tauri_build::AppManifest::new().commands(&["save_file", "notify", "open_external"]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest)).expect("tauri build step failed")
}
