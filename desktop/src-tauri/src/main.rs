// The desktop shell of Bulwark: one window showing the web app from the deployment's URL, a native
// menu, sign-in links as app events, and three commands (save, notify, open in the browser) that
// only the product's own origin may call.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod product;

use product::Product;
use tauri::ipc::{CapabilityBuilder, InvokeBody, Request};
use tauri::menu::{MenuBuilder, MenuItemBuilder, SubmenuBuilder};
use tauri::webview::NewWindowResponse;
use tauri::{AppHandle, Emitter, Manager, Url, WebviewUrl, WebviewWindowBuilder, WindowEvent};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_notification::NotificationExt;
use tauri_plugin_opener::OpenerExt;
use tauri_plugin_window_state::{AppHandleExt, StateFlags};

const MAIN: &str = "main";
/// The event the web app listens to for the menu's commands.
const MENU_EVENT: &str = "bulwark://menu";

/// Asks where to save through the native dialog and writes the bytes there. The body is the file
/// itself (raw bytes, no JSON), the name comes in a header. Resolves to false when cancelled.
#[tauri::command]
async fn save_file(app: AppHandle, request: Request<'_>) -> Result<bool, String> {
    let InvokeBody::Raw(bytes) = request.body() else {
        return Err("the file must be sent as bytes".into());
    };
    let name = request
        .headers()
        .get("x-file-name")
        .and_then(|value| value.to_str().ok())
        .map(product::decode_file_name)
        .unwrap_or_else(|| "export".into());
    let mut dialog = app.dialog().file().set_file_name(&name);
    if let Some(folder) = app.path().download_dir().ok().or_else(|| app.path().home_dir().ok()) {
        dialog = dialog.set_directory(folder);
    }
    let Some(target) = dialog.blocking_save_file() else {
        return Ok(false);
    };
    let path = target.into_path().map_err(|error| error.to_string())?;
    std::fs::write(&path, bytes).map_err(|error| error.to_string())?;
    Ok(true)
}

/// A native notification, e.g. a new critical finding.
#[tauri::command]
fn notify(app: AppHandle, title: String, body: String) -> Result<(), String> {
    let title: String = title.chars().take(120).collect();
    let body: String = body.chars().take(400).collect();
    app.notification()
        .builder()
        .title(title)
        .body(body)
        .show()
        .map_err(|error| error.to_string())
}

/// Opens a web or mail address in the person's browser or mail client, never in this window.
#[tauri::command]
fn open_external(app: AppHandle, url: String) -> Result<(), String> {
    let url = Url::parse(&url).map_err(|_| "not a URL".to_string())?;
    if !product::is_external_scheme(&url) {
        return Err("only http, https and mailto addresses open outside the app".into());
    }
    app.opener().open_url(url.as_str(), None::<&str>).map_err(|error| error.to_string())
}

fn open_in_browser(app: &AppHandle, url: &Url) {
    if product::is_external_scheme(url) {
        let _ = app.opener().open_url(url.as_str(), None::<&str>);
    }
}

fn focus_main(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}

fn build_menu(app: &AppHandle) -> tauri::Result<()> {
    let sign_out = MenuItemBuilder::with_id("sign-out", "Sign out").build(app)?;
    let scheme = MenuItemBuilder::with_id("color-scheme", "Light/dark")
        .accelerator("CmdOrCtrl+J")
        .build(app)?;
    let navbar = MenuItemBuilder::with_id("toggle-menu", "Show/hide menu")
        .accelerator("CmdOrCtrl+M")
        .build(app)?;
    let shortcuts = MenuItemBuilder::with_id("shortcuts", "Keyboard shortcuts")
        .accelerator("CmdOrCtrl+H")
        .build(app)?;
    let file = SubmenuBuilder::new(app, "&Bulwark").item(&sign_out).separator().quit().build()?;
    let edit = SubmenuBuilder::new(app, "&Edit")
        .undo()
        .redo()
        .separator()
        .cut()
        .copy()
        .paste()
        .select_all()
        .build()?;
    let view = SubmenuBuilder::new(app, "&View").item(&scheme).item(&navbar).build()?;
    let help = SubmenuBuilder::new(app, "&Help").item(&shortcuts).build()?;
    let menu = MenuBuilder::new(app).items(&[&file, &edit, &view, &help]).build()?;
    app.set_menu(menu)?;
    app.on_menu_event(|app, event| {
        let id = event.id().as_ref();
        if ["sign-out", "color-scheme", "toggle-menu", "shortcuts"].contains(&id) {
            let _ = app.emit_to(MAIN, MENU_EVENT, id);
        }
    });
    Ok(())
}

fn open_main_window(app: &AppHandle, product: &Product) -> tauri::Result<()> {
    let nav_app = app.clone();
    let nav_product = product.clone();
    let popup_app = app.clone();
    let window = WebviewWindowBuilder::new(app, MAIN, WebviewUrl::External(product.start.clone()))
        .title("Bulwark")
        .inner_size(1280.0, 800.0)
        .min_inner_size(800.0, 560.0)
        // Only the product's pages load in the window; any other address goes to the browser.
        .on_navigation(move |url| {
            if nav_product.may_load(url) {
                return true;
            }
            open_in_browser(&nav_app, url);
            false
        })
        .on_new_window(move |url, _features| {
            open_in_browser(&popup_app, &url);
            NewWindowResponse::Deny
        })
        .build()?;
    // Saved as it changes, not only at a clean exit, so a crash or a forced quit keeps it too.
    let state_app = app.clone();
    window.on_window_event(move |event| {
        if matches!(event, WindowEvent::Moved(_) | WindowEvent::Resized(_)) {
            let _ = state_app.save_window_state(StateFlags::all());
        }
    });
    Ok(())
}

fn main() {
    let product = Product::from_env();
    let setup_product = product.clone();
    tauri::Builder::default()
        // First: a second launch hands its arguments (the sign-in link) to this one and exits.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| focus_main(app)))
        .plugin(tauri_plugin_deep_link::init())
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_opener::init())
        .invoke_handler(tauri::generate_handler![save_file, notify, open_external])
        .setup(move |app| {
            // The product's origin, and nothing else, may use what the app offers.
            app.add_capability(
                CapabilityBuilder::new("product")
                    .remote(setup_product.capability_pattern())
                    .local(false)
                    .window(MAIN)
                    .permission("core:event:allow-listen")
                    .permission("core:event:allow-unlisten")
                    .permission("deep-link:allow-get-current")
                    .permission("allow-save-file")
                    .permission("allow-notify")
                    .permission("allow-open-external"),
            )?;
            #[cfg(all(debug_assertions, target_os = "linux"))]
            {
                // Installed packages register the scheme themselves; a development build does it here.
                use tauri_plugin_deep_link::DeepLinkExt;
                let _ = app.deep_link().register_all();
            }
            build_menu(app.handle())?;
            open_main_window(app.handle(), &setup_product)?;
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("the desktop app failed to start");
}
