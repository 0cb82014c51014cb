// Where the product lives: the address the window opens and the one origin that may use the app.
use tauri::Url;

/// Built in with `BULWARK_APP_URL` at compile time; the local stack otherwise.
const BUILT_IN_URL: &str = match option_env!("BULWARK_APP_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:3000/",
};

#[derive(Clone, Debug)]
pub struct Product {
    pub start: Url,
}

impl Product {
    /// `BULWARK_APP_URL` at run time points one installed app at another deployment (or the local stack).
    pub fn from_env() -> Self {
        let configured = std::env::var("BULWARK_APP_URL").ok();
        Self::parse(configured.as_deref().unwrap_or(BUILT_IN_URL)).unwrap_or_else(|| {
            eprintln!("BULWARK_APP_URL is not an http(s) URL; using {BUILT_IN_URL}");
            Self::parse(BUILT_IN_URL).expect("the built-in URL is valid")
        })
    }

    pub fn parse(raw: &str) -> Option<Self> {
        let start = Url::parse(raw).ok()?;
        if !matches!(start.scheme(), "http" | "https") || start.host_str().is_none() {
            return None;
        }
        Some(Self { start })
    }

    /// The remote-URL pattern of the product's capability: every page of its origin, no other.
    pub fn capability_pattern(&self) -> String {
        format!("{}/*", self.start.origin().ascii_serialization())
    }

    /// What the window may show: the product's pages, and the app's own page when the server is unreachable.
    pub fn may_load(&self, url: &Url) -> bool {
        url.origin() == self.start.origin()
            || url.as_str() == "about:blank"
            || (url.scheme() == "tauri" && url.host_str() == Some("localhost"))
    }
}

/// Addresses handed to the browser or the mail client; nothing that could start a program.
pub fn is_external_scheme(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https" | "mailto")
}

/// The suggested file name from its header: percent-decoded, without any folder part.
pub fn decode_file_name(raw: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
    let base = decoded.rsplit(['/', '\\']).next().unwrap_or_default().trim();
    let name: String = base.chars().filter(|c| !c.is_control()).take(200).collect();
    if name.is_empty() || name == "." || name == ".." {
        "export".into()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product() -> Product {
        Product::parse("http://127.0.0.1:3000/").unwrap()
    }

    #[test]
    fn the_capability_covers_exactly_the_product_origin() {
        assert_eq!(product().capability_pattern(), "http://127.0.0.1:3000/*");
        assert_eq!(
            Product::parse("https://app.example.com/reports").unwrap().capability_pattern(),
            "https://app.example.com/*"
        );
    }

    #[test]
    fn only_product_pages_load_in_the_window() {
        let product = product();
        assert!(product.may_load(&Url::parse("http://127.0.0.1:3000/reports?x=1").unwrap()));
        assert!(!product.may_load(&Url::parse("http://localhost:3000/").unwrap()));
        assert!(!product.may_load(&Url::parse("http://127.0.0.1:3001/").unwrap()));
        assert!(!product.may_load(&Url::parse("https://example.com/").unwrap()));
    }

    #[test]
    fn the_start_address_is_a_web_address() {
        assert!(Product::parse("file:///etc/passwd").is_none());
        assert!(Product::parse("not a url").is_none());
    }

    #[test]
    fn only_web_and_mail_addresses_leave_the_app() {
        assert!(is_external_scheme(&Url::parse("https://example.com").unwrap()));
        assert!(is_external_scheme(&Url::parse("mailto:a@example.com").unwrap()));
        assert!(!is_external_scheme(&Url::parse("file:///bin/sh").unwrap()));
        assert!(!is_external_scheme(&Url::parse("bulwark://auth/redirect").unwrap()));
    }

    #[test]
    fn file_names_lose_their_folders() {
        assert_eq!(decode_file_name("findings%20acme.csv"), "findings acme.csv");
        assert_eq!(decode_file_name("..%2F..%2Fetc%2Fpasswd"), "passwd");
        assert_eq!(decode_file_name("%2E%2E"), "export");
        assert_eq!(decode_file_name(""), "export");
    }
}
