//! Tests that keep the layers one-way, read from the source itself:
//! `command/` and `schedule/` never name the store, `web/` never names the
//! service and `reader` nothing above it, and the modules inside
//! `service/` depend on each other without a cycle.
//!
//! The service's module graph is derived from the paths the code names
//! (`super::x`, `super::{x, y::z}`, `crate::service::x`, and in the files
//! of a directory module `super::super::x`): each top-level module of
//! `service/` (a file, or a directory counted as one) is a node, the
//! dispatcher `commands/` among them. The root, `service/mod.rs`, is a node
//! too (`mod`): it names its modules as `x::`, and a module depends on it
//! when it names an item the root itself defines (the types every module
//! shares live in `kernel`, below them all, so the root is the top). A
//! name the root only re-exports counts for no edge.
//! `cargo test --lib layers -- --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, recursively, in a stable order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a source directory")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

fn source_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(name)
}

/// The text of a file without its `//` comments (doc comments name
/// modules freely).
fn code_of(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a readable source file");
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first path segment of each item a path prefix is followed by:
/// `board_mail::load` gives `board_mail`, `{Ctx, answer::{self, X}}` gives
/// `Ctx` and `answer`.
fn first_segments(rest: &str) -> Vec<String> {
    let ident = |text: &str| -> String {
        text.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let rest = rest.trim_start();
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest)];
    };
    let mut segments = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if c.is_whitespace() => {}
            _ if item_start => {
                item_start = false;
                segments.push(ident(&group[index..]));
            }
            _ => {}
        }
    }
    segments
}

/// The service's modules and the sibling modules each one names.
fn service_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = source_dir("service");
    let files = rust_files(&root);
    let node_of = |path: &Path| -> String {
        let relative = path.strip_prefix(&root).expect("under service/");
        let first = relative
            .components()
            .next()
            .expect("a path")
            .as_os_str()
            .to_string_lossy()
            .to_string();
        first.trim_end_matches(".rs").to_string()
    };
    let nodes: BTreeSet<String> = files.iter().map(|path| node_of(path)).collect();
    let root_items = root_items(&root.join("mod.rs"));
    let mut graph: BTreeMap<String, BTreeSet<String>> = nodes
        .iter()
        .map(|node| (node.clone(), BTreeSet::new()))
        .collect();
    for path in &files {
        let node = node_of(path);
        if node == "mod" {
            // The root names its modules without a prefix.
            let code = code_of(path);
            for other in &nodes {
                if other != "mod" && names_module(&code, other) {
                    graph
                        .get_mut("mod")
                        .expect("the root")
                        .insert(other.clone());
                }
            }
            continue;
        }
        let relative = path.strip_prefix(&root).expect("under service/");
        // In `service/x/y.rs` (not `x/mod.rs`), `super::` is `x` itself.
        let nested = relative.components().count() > 1 && !path.ends_with("mod.rs");
        let prefixes: &[&str] = if nested {
            &["super::super::", "crate::service::"]
        } else {
            &["super::", "crate::service::"]
        };
        let code = code_of(path);
        for prefix in prefixes {
            for (at, _) in code.match_indices(prefix) {
                // `super::super::` is not `super::` followed by `super`.
                if *prefix == "super::" && code[..at].ends_with("super::") {
                    continue;
                }
                for segment in first_segments(&code[at + prefix.len()..]) {
                    if segment != node && segment != "mod" && nodes.contains(&segment) {
                        graph.get_mut(&node).expect("a node").insert(segment);
                    } else if root_items.contains(&segment) {
                        graph.get_mut(&node).expect("a node").insert("mod".into());
                    }
                }
            }
        }
    }
    graph
}

/// The names of the items `mod.rs` itself defines (not those it
/// re-exports with `use`).
fn root_items(path: &Path) -> BTreeSet<String> {
    let code = code_of(path);
    let mut items = BTreeSet::new();
    for line in code.lines() {
        let mut words = line.split_whitespace().peekable();
        if words.peek().is_some_and(|w| w.starts_with("pub")) {
            words.next();
        }
        let kind = words.next().unwrap_or("");
        if ["fn", "struct", "enum", "const", "static", "type", "trait"].contains(&kind)
            && let Some(name) = words.next()
        {
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            items.insert(name);
        }
    }
    items
}

/// Whether the root's `code` names module `module` as a path (`module::`)
/// other than in its declaration.
fn names_module(code: &str, module: &str) -> bool {
    let path = format!("{module}::");
    code.match_indices(&path).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    }) || code.contains(&format!("{{{module}")) && code.contains(&format!("use {{{module}"))
}

/// A cycle of `graph`, if it has one, as the path around it.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|n| n == node).expect("on the path");
                let mut cycle = path[start..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.to_string(), Mark::Open);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

#[test]
fn command_and_schedule_do_not_use_the_store() {
    for dir in ["command", "schedule"] {
        for path in rust_files(&source_dir(dir)) {
            let code = code_of(&path);
            assert!(
                !code.contains("crate::store"),
                "{} uses the store; shared values belong in `domain`",
                path.display()
            );
        }
    }
}

#[test]
fn the_web_reads_through_the_reader_policy_never_the_service() {
    for path in rust_files(&source_dir("web")) {
        let code = code_of(&path);
        assert!(
            !code.contains("crate::service"),
            "{} uses the service; what a page may show is `reader`'s to say",
            path.display()
        );
    }
    let reader = code_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/reader.rs"));
    for above in ["crate::service", "crate::mail", "crate::web"] {
        assert!(
            !reader.contains(above),
            "reader.rs uses {above}: the policy sits below them"
        );
    }
    // It reads the store and never writes it.
    for write in ["execute", "set_", "insert", "add_"] {
        assert!(
            !reader.contains(&format!("::{write}")) && !reader.contains(&format!(".{write}")),
            "reader.rs writes ({write})"
        );
    }
}

#[test]
fn the_service_modules_form_no_cycle() {
    let graph = service_graph();
    for (node, uses) in &graph {
        let uses: Vec<&str> = uses.iter().map(String::as_str).collect();
        println!("{node} -> {}", uses.join(", "));
    }
    assert!(graph.contains_key("board_mail"), "the graph is read");
    assert!(
        graph["mod"].contains("context") && graph["dialogue"].contains("commands"),
        "the root and the dispatcher are in the graph"
    );
    if let Some(cycle) = cycle(&graph) {
        panic!("the service modules form a cycle: {}", cycle.join(" -> "));
    }
}

#[test]
fn the_graph_reader_finds_the_paths_and_the_cycles() {
    assert_eq!(
        first_segments("{Ctx, answer::{self, Outcome}, board_mail as b};"),
        ["Ctx", "answer", "board_mail"]
    );
    assert_eq!(first_segments("deadlines::readable(at)"), ["deadlines"]);
    let graph = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            graph
                .entry(from.to_string())
                .or_default()
                .insert(to.to_string());
            graph.entry(to.to_string()).or_default();
        }
        graph
    };
    assert_eq!(
        cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(cycle(&graph(&[("a", "b"), ("a", "c"), ("b", "c")])), None);
}

/// The check fails where it should: the real graph with one deliberate
/// edge back up, from a module every command uses to the dispatcher (as a
/// helper that called a command's act would add), has a cycle through the
/// dispatcher; so has one from the dispatcher's module back to the root.
#[test]
fn a_deliberate_cycle_through_the_dispatcher_is_found() {
    let mut graph = service_graph();
    assert_eq!(cycle(&graph), None, "the real graph has none");
    graph
        .get_mut("play")
        .expect("play is a node")
        .insert("commands".into());
    let found = cycle(&graph).expect("play -> commands closes a cycle");
    assert!(found.contains(&"commands".to_string()), "{found:?}");
    let mut graph = service_graph();
    graph
        .get_mut("kernel")
        .expect("kernel is a node")
        .insert("mod".into());
    let found = cycle(&graph).expect("kernel -> the root closes a cycle");
    assert!(found.contains(&"mod".to_string()), "{found:?}");
}
