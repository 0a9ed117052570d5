//! The spectators' web site: read-only pages of boards, events, ratings and
//! players, Atom feeds, `/health` and `/metrics`, served by `pbem serve`
//! on `[web] listen` (default `127.0.0.1:8080`; `listen = ""` turns it
//! off), with axum on the runtime `serve` already runs.
//!
//! - Read-only: each request reads the store in one read transaction (a
//!   snapshot) on a blocking thread, at most [`READERS`] at a time, on
//!   connections kept for reuse. Readers never block the mail's writers
//!   (WAL), and the web site never writes.
//! - Private stays private: no page shows an address, a password, a
//!   comment or chat line, or a challenge its challenged player has not
//!   accepted, and a player only once an address confirmed
//!   ([`crate::store::web`]).
//! - Hostile input: unknown names and numbers past `u32` are 404, an
//!   unknown or huge query 400; nothing a request holds can panic.
//! - Its failure is not the mail's: a port that cannot be bound is logged,
//!   retried for a minute and then given up while the mail goes on
//!   ([`spawn`]); connections are bounded in number, per client address
//!   and in time ([`listener`]), so neither a flood nor stalled clients
//!   take the site or the file descriptors the mail needs.
//! - Every page has an `ETag` (a digest of its bytes); `If-None-Match`
//!   with it is answered 304 without the body.

pub mod listener;
pub use listener::{HEADER_READ_TIMEOUT, MAX_CONNECTIONS, PER_ADDRESS};
pub mod pages;
mod pgn;
mod svg;
mod templates;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rusqlite::Connection;
use sha2::{Digest, Sha256};
use shakmaty::Color;

use crate::config::Config;
use crate::metrics::Metrics;
use crate::rules::Variant;
use crate::server::TimeSource;
use crate::store::{Store, StoreError, web};
use templates::Pages;

/// Requests that read the store at the same time; more wait their turn.
pub const READERS: usize = 4;

/// The longest query string read; a longer one is refused (400).
pub const MAX_QUERY: usize = 256;

/// What the web site serves from.
pub struct Site {
    database: PathBuf,
    pages: Pages,
    /// The server's own address, which the PGN's `Site` tag names (as in
    /// the PGN a finished game's mail attaches).
    address: String,
    time_source: TimeSource,
    /// The running server's counters, which `/metrics` shows.
    metrics: Arc<Metrics>,
    /// Connections kept for the next request.
    idle: Mutex<Vec<Store>>,
    readers: Arc<tokio::sync::Semaphore>,
}

impl Site {
    /// The site of the configuration's database and templates, whose
    /// `/metrics` shows counters of its own that nothing counts into.
    pub fn new(config: &Config, time_source: TimeSource) -> Site {
        Site::with_metrics(config, time_source, Arc::default())
    }

    /// The site of `pbem serve`, showing the counters the server keeps.
    pub fn with_metrics(config: &Config, time_source: TimeSource, metrics: Arc<Metrics>) -> Site {
        Site {
            database: config.database.clone(),
            pages: Pages::new(config.service.templates_dir.as_deref()),
            address: config.service.address.to_string(),
            time_source,
            metrics,
            idle: Mutex::new(Vec::new()),
            readers: Arc::new(tokio::sync::Semaphore::new(READERS)),
        }
    }

    /// Runs `read` in a read transaction on a kept connection or a new one.
    fn read<T>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, WebError>,
    ) -> Result<T, WebError> {
        let kept = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let store = match kept {
            Some(store) => store,
            None => Store::open(&self.database)?,
        };
        let result = {
            let snapshot = store
                .conn()
                .unchecked_transaction()
                .map_err(StoreError::from)?;
            read(&snapshot)
        };
        // A connection that failed is dropped rather than kept.
        if !matches!(result, Err(WebError::Failed(_))) {
            let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
            if idle.len() < READERS {
                idle.push(store);
            }
        }
        result
    }
}

/// A page built: its type and text.
pub struct Page {
    pub content_type: &'static str,
    pub body: String,
}

/// Why a request gets no page.
#[derive(Debug)]
pub enum WebError {
    NotFound,
    BadRequest(&'static str),
    /// The store or a template failed: logged, and a 500 without detail.
    Failed(String),
}

impl From<StoreError> for WebError {
    fn from(error: StoreError) -> WebError {
        WebError::Failed(error.to_string())
    }
}

/// The routes.
pub fn router(site: Arc<Site>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/health", get(health))
        .route("/feed.atom", get(site_feed))
        .route("/metrics", get(metrics))
        .route("/boards/{file}", get(board))
        .route("/events", get(events))
        .route("/events/{file}", get(event))
        .route("/ladders", get(ladders))
        .route("/ladders/{name}", get(ladder))
        .route("/players", get(players))
        .route("/variants", get(variants))
        .route("/variants/{id}", get(variant))
        .route("/ratings", get(rated_variants))
        .route("/ratings/{variant}", get(ratings))
        .route("/players/{userid}", get(player))
        .fallback(not_found)
        .with_state(site)
}

/// Serves the site on `listener` until the runtime stops, within the
/// bounds of [`listener`]: [`MAX_CONNECTIONS`] open at once, [`PER_ADDRESS`]
/// from one address, a header within [`HEADER_READ_TIMEOUT`].
pub async fn serve_on(listener: tokio::net::TcpListener, site: Site) {
    listener::serve(listener, router(Arc::new(site))).await
}

/// How often a web port that cannot be bound at start is tried again.
pub const BIND_RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// How long it is tried before the site is given up.
pub const BIND_PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// Starts the web site of `config` as a task of the current runtime, if
/// `[web] listen` names an address. A port that cannot be bound is logged
/// as an error and tried again every [`BIND_RETRY`] for [`BIND_PATIENCE`]
/// (a server restarted while the old one still holds the port, or a
/// program that lets it go), then given up; none of it stops or delays
/// the mail, which must go on. `/metrics` shows `metrics`, which the
/// server counts into.
pub async fn spawn(config: &Config, time_source: TimeSource, metrics: Arc<Metrics>) {
    let Some(listen) = config.web.listen else {
        tracing::info!("the web site is off ([web] listen = \"\")");
        return;
    };
    let site = Site::with_metrics(config, time_source, metrics);
    tokio::spawn(async move {
        let start = tokio::time::Instant::now();
        let listener = loop {
            match tokio::net::TcpListener::bind(listen).await {
                Ok(listener) => break listener,
                Err(error) if start.elapsed() + BIND_RETRY <= BIND_PATIENCE => tracing::error!(
                    %listen,
                    %error,
                    "cannot serve the web site on {listen} ([web] listen): {error}; trying again in {}s",
                    BIND_RETRY.as_secs()
                ),
                Err(error) => {
                    return tracing::error!(
                        %listen,
                        %error,
                        "cannot serve the web site on {listen} ([web] listen): {error}; given up after {}s, the mail goes on without it",
                        BIND_PATIENCE.as_secs()
                    );
                }
            }
            tokio::time::sleep(BIND_RETRY).await;
        };
        let address = listener.local_addr().unwrap_or(listen);
        tracing::info!(%address, "serving the web site on http://{address}/");
        serve_on(listener, site).await;
    });
}

/// Builds a page on a blocking thread (the store is synchronous) and
/// answers it, or 304 when the reader's copy is current.
async fn answer(
    site: Arc<Site>,
    headers: &HeaderMap,
    build: impl FnOnce(&Site, &Connection) -> Result<Page, WebError> + Send + 'static,
) -> Response {
    let Ok(permit) = site.readers.clone().acquire_owned().await else {
        return failed("the readers' semaphore closed");
    };
    let reader = site.clone();
    // The permit goes with the read, which runs on even if the client
    // leaves, so no more than READERS reads ever run at once.
    let built = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        reader.read(|conn| build(&reader, conn))
    })
    .await;
    match built {
        Ok(Ok(page)) => respond(headers, page),
        Ok(Err(error)) => refusal(&site, error),
        Err(error) => failed(&error.to_string()),
    }
}

/// The quoted `ETag` of a body: the first 128 bits of its SHA-256.
fn etag(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// Whether `If-None-Match` names `tag` (weak or strong) or `*`.
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|candidate| candidate.trim().trim_start_matches("W/"))
        .any(|candidate| candidate == tag || candidate == "*")
}

/// Headers every answer carries: no script or outside resource may load,
/// no type is guessed.
fn with_safety(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn respond(headers: &HeaderMap, page: Page) -> Response {
    let tag = etag(page.body.as_bytes());
    let response = if not_modified(headers, &tag) {
        (StatusCode::NOT_MODIFIED, [(header::ETAG, tag)]).into_response()
    } else {
        (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, page.content_type.to_string()),
                (header::ETAG, tag),
                // Ask again each time: a 304 costs little.
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
            Body::from(page.body),
        )
            .into_response()
    };
    with_safety(response)
}

fn failed(error: &str) -> Response {
    tracing::error!(error, "a web page failed");
    with_safety(
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The page could not be built; the error is logged.\n",
        )
            .into_response(),
    )
}

fn refusal(site: &Site, error: WebError) -> Response {
    let (status, message) = match error {
        WebError::NotFound => (StatusCode::NOT_FOUND, "There is no such page."),
        WebError::BadRequest(message) => (StatusCode::BAD_REQUEST, message),
        WebError::Failed(error) => return failed(&error),
    };
    let body = site
        .pages
        .render(
            "error.html",
            minijinja::context! { status => status.as_u16(), message => message },
        )
        .unwrap_or_else(|_| format!("{message}\n"));
    with_safety(
        (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            body,
        )
            .into_response(),
    )
}

/// Refuses a query string that is too long to be one of ours.
fn check_query(query: &Option<String>) -> Result<(), WebError> {
    match query {
        Some(query) if query.len() > MAX_QUERY => {
            Err(WebError::BadRequest("The query is too long."))
        }
        _ => Ok(()),
    }
}

/// What a board page's query asks: the side it is seen from
/// (`side=black` or `side=white`, White's without one) and the position
/// (`turn=K`, after K turns; the latest without one).
fn board_query(query: &Option<String>) -> Result<(Color, Option<u32>), WebError> {
    check_query(query)?;
    let (mut side, mut turn) = (Color::White, None);
    for pair in query.as_deref().unwrap_or("").split('&') {
        match pair.split_once('=') {
            None if pair.is_empty() => {}
            Some(("side", "white")) => side = Color::White,
            Some(("side", "black")) => side = Color::Black,
            // Digits only, within u32; more is no turn of any game (404).
            Some(("turn", k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => {
                turn = Some(k.parse::<u32>().map_err(|_| WebError::NotFound)?);
            }
            _ => {
                return Err(WebError::BadRequest(
                    "A board page reads only side=white or side=black and turn=<number>.",
                ));
            }
        }
    }
    Ok((side, turn))
}

/// The round an event page's query asks for (`round=N`; the page picks
/// one without it), read as strictly as a board's `turn`; other keys are
/// ignored, as they always were on event pages.
fn round_query(query: &Option<String>) -> Result<Option<u32>, WebError> {
    check_query(query)?;
    let mut round = None;
    for pair in query.as_deref().unwrap_or("").split('&') {
        if let Some(("round", n)) = pair.split_once('=') {
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(WebError::BadRequest(
                    "An event page reads only round=<number>.",
                ));
            }
            round = Some(n.parse::<u32>().map_err(|_| WebError::NotFound)?);
        }
    }
    Ok(round)
}

/// The page of a list a query asks for (`page=N`, N from 1; the first
/// without one), read as strictly as a board's `turn`: digits only, else
/// 400; 0 or past `u32` is no page of any list (404).
fn page_query(query: &Option<String>) -> Result<u32, WebError> {
    check_query(query)?;
    let mut page = 1;
    for pair in query.as_deref().unwrap_or("").split('&') {
        match pair.split_once('=') {
            None if pair.is_empty() => {}
            Some(("page", n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                page = n.parse::<u32>().map_err(|_| WebError::NotFound)?;
                if page == 0 {
                    return Err(WebError::NotFound);
                }
            }
            _ => return Err(WebError::BadRequest("A list reads only page=<number>.")),
        }
    }
    Ok(page)
}

/// Answers `build` with the page of the list the query asks for.
async fn paged(
    site: Arc<Site>,
    headers: &HeaderMap,
    query: &Option<String>,
    build: impl FnOnce(&Site, &Connection, u32) -> Result<Page, WebError> + Send + 'static,
) -> Response {
    match page_query(query) {
        Ok(page) => answer(site, headers, move |site, conn| build(site, conn, page)).await,
        Err(error) => refusal(&site, error),
    }
}

/// `name.ext` split at its last dot, when `ext` is one of `known`.
fn split_extension<'a>(file: &'a str, known: &[&str]) -> (&'a str, Option<&'a str>) {
    match file.rsplit_once('.') {
        Some((name, ext)) if known.contains(&ext) => (name, Some(ext)),
        _ => (file, None),
    }
}

/// Answers `build` unless the query is refused first.
async fn checked(
    site: Arc<Site>,
    headers: &HeaderMap,
    query: Result<(), WebError>,
    build: impl FnOnce(&Site, &Connection) -> Result<Page, WebError> + Send + 'static,
) -> Response {
    match query {
        Ok(()) => answer(site, headers, build).await,
        Err(error) => refusal(&site, error),
    }
}

async fn index(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    paged(site, &headers, &query, pages::index).await
}

async fn health(State(site): State<Arc<Site>>) -> Response {
    let reader = site.clone();
    let answered = tokio::task::spawn_blocking(move || reader.read(|conn| Ok(web::answers(conn)?)));
    match answered.await {
        Ok(Ok(())) => (StatusCode::OK, "ok\n").into_response(),
        Ok(Err(error)) => {
            tracing::error!(?error, "the health check found the store failing");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the store does not answer\n",
            )
                .into_response()
        }
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "the check failed\n").into_response(),
    }
}

async fn metrics(State(site): State<Arc<Site>>, headers: HeaderMap) -> Response {
    answer(site, &headers, |site, conn| {
        pages::metrics(conn, &site.metrics.snapshot())
    })
    .await
}

async fn board(
    State(site): State<Arc<Site>>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let (number, extension) = split_extension(&file, &["pgn", "atom"]);
    // Digits only: `+101` or `0x65` are no board numbers.
    let number = match number.bytes().all(|b| b.is_ascii_digit()) {
        true => number.parse::<u32>().ok(),
        false => None,
    };
    let Some(number) = number else {
        return refusal(&site, WebError::NotFound);
    };
    match extension {
        None => match board_query(&query) {
            Ok((side, turn)) => {
                answer(site, &headers, move |site, conn| {
                    pages::board(site, conn, number, side, turn)
                })
                .await
            }
            Err(error) => refusal(&site, error),
        },
        Some("pgn") => {
            checked(site, &headers, check_query(&query), move |site, conn| {
                pgn::board_pgn(site, conn, number)
            })
            .await
        }
        Some(_) => {
            checked(site, &headers, check_query(&query), move |site, conn| {
                pages::board_feed(site, conn, number)
            })
            .await
        }
    }
}

async fn events(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    paged(site, &headers, &query, pages::events).await
}

async fn event(
    State(site): State<Arc<Site>>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let (name, extension) = split_extension(&file, &["trf", "pgn", "atom"]);
    let name = name.to_string();
    let extension = extension.map(str::to_string);
    let round = match round_query(&query) {
        Ok(round) => round,
        Err(error) => return refusal(&site, error),
    };
    answer(site, &headers, move |site, conn| {
        match extension.as_deref() {
            None => pages::event_round(site, conn, &name, round),
            Some("trf") => pages::event_trf(conn, &name),
            Some("pgn") => pgn::event_pgn(site, conn, &name),
            Some(_) => pages::event_feed(site, conn, &name),
        }
    })
    .await
}

async fn ladder(
    State(site): State<Arc<Site>>,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    checked(site, &headers, check_query(&query), move |site, conn| {
        pages::ladder(site, conn, &name)
    })
    .await
}

async fn rated_variants(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    checked(site, &headers, check_query(&query), pages::rated_variants).await
}

async fn ratings(
    State(site): State<Arc<Site>>,
    Path(variant): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let Ok(variant) = variant.parse::<Variant>() else {
        return refusal(&site, WebError::NotFound);
    };
    checked(site, &headers, check_query(&query), move |site, conn| {
        pages::ratings(site, conn, variant)
    })
    .await
}

async fn player(
    State(site): State<Arc<Site>>,
    Path(userid): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    paged(site, &headers, &query, move |site, conn, page| {
        pages::player(site, conn, &userid, page)
    })
    .await
}

async fn players(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    paged(site, &headers, &query, pages::players).await
}

async fn ladders(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    checked(site, &headers, check_query(&query), pages::ladders).await
}

async fn site_feed(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    checked(site, &headers, check_query(&query), pages::site_feed).await
}

async fn variants(
    State(site): State<Arc<Site>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    checked(site, &headers, check_query(&query), |site, _| {
        pages::variants(site)
    })
    .await
}

async fn variant(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let Ok(variant) = id.parse::<Variant>() else {
        return refusal(&site, WebError::NotFound);
    };
    checked(site, &headers, check_query(&query), move |site, _| {
        pages::variant(site, variant)
    })
    .await
}

async fn not_found(State(site): State<Arc<Site>>) -> Response {
    refusal(&site, WebError::NotFound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matching_etag_is_not_modified() {
        let tag = etag(b"page");
        let mut headers = HeaderMap::new();
        assert!(!not_modified(&headers, &tag));
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"other\", W/{tag}")).expect("header"),
        );
        assert!(not_modified(&headers, &tag));
        assert!(!not_modified(&headers, &etag(b"another page")));
    }

    #[test]
    fn the_board_query_is_read_strictly() {
        let side = |query: &str| board_query(&Some(query.into())).ok();
        assert_eq!(board_query(&None).ok(), Some((Color::White, None)));
        assert_eq!(side("side=black"), Some((Color::Black, None)));
        assert_eq!(side("turn=3&side=black"), Some((Color::Black, Some(3))));
        assert_eq!(side("turn=0"), Some((Color::White, Some(0))));
        assert!(side("side=purple").is_none());
        assert!(side("turn=-1").is_none());
        assert!(side("turn=").is_none());
        assert!(matches!(
            board_query(&Some("turn=99999999999".into())),
            Err(WebError::NotFound)
        ));
        assert!(board_query(&Some("x".repeat(MAX_QUERY + 1))).is_err());
    }

    #[test]
    fn the_page_query_is_read_as_strictly_as_the_board_query() {
        let page = |query: &str| page_query(&Some(query.into()));
        assert_eq!(page_query(&None).ok(), Some(1));
        let round = |q: &str| round_query(&Some(q.to_string()));
        assert_eq!(round("round=3").ok(), Some(Some(3)));
        assert_eq!(round("side=black").ok(), Some(None));
        assert!(matches!(
            round("round=99999999999"),
            Err(WebError::NotFound)
        ));
        for bad in ["round=", "round=-1", "round=two"] {
            assert!(matches!(round(bad), Err(WebError::BadRequest(_))), "{bad}");
        }
        assert_eq!(page("page=3").ok(), Some(3));
        assert!(matches!(page("page=0"), Err(WebError::NotFound)));
        assert!(matches!(page("page=99999999999"), Err(WebError::NotFound)));
        for bad in ["page=", "page=-1", "page=two", "side=black", "page"] {
            assert!(matches!(page(bad), Err(WebError::BadRequest(_))), "{bad}");
        }
    }

    #[test]
    fn extensions_are_split_only_when_known() {
        assert_eq!(split_extension("101.pgn", &["pgn"]), ("101", Some("pgn")));
        assert_eq!(split_extension("101.png", &["pgn"]), ("101.png", None));
        assert_eq!(split_extension("spring", &["trf"]), ("spring", None));
    }
}
