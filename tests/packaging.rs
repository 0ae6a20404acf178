//! What the project ships beside the binary: the binary is position independent, the Debian
//! package's metadata names files that exist, and the commands that the systemd units and the
//! container image run parse. (The test command also builds the package, installs it and checks
//! the installed files; no container engine runs here, so the image is checked by its contents.)

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `e_type` of an ELF header is `ET_DYN` for a position-independent executable (and for a shared
/// library: an executable also has a `PT_INTERP` program header naming its loader).
#[test]
fn the_binary_is_a_position_independent_executable() {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_ejctl")).unwrap();
    assert_eq!(&elf[..4], b"\x7fELF");
    assert_eq!(elf[4], 2, "a 64-bit ELF file");
    let u16_at = |at: usize| u16::from_le_bytes([elf[at], elf[at + 1]]);
    let u64_at = |at: usize| u64::from_le_bytes(elf[at..at + 8].try_into().unwrap());
    assert_eq!(u16_at(16), 3, "e_type is not ET_DYN: the executable was linked position dependent (-no-pie)");
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54) as usize, u16_at(56) as usize);
    let interp = (0..phnum).any(|i| u32::from_le_bytes(elf[phoff + i * phentsize..][..4].try_into().unwrap()) == 3);
    assert!(interp, "no PT_INTERP: a shared library, not an executable");
}

/// The assets of `[package.metadata.deb]` in Cargo.toml.
fn deb_metadata() -> toml::Value {
    let manifest: toml::Table = toml::from_str(&std::fs::read_to_string(root().join("Cargo.toml")).unwrap()).unwrap();
    manifest["package"]["metadata"]["deb"].clone()
}

#[test]
fn the_debian_package_names_files_that_exist() {
    let deb = deb_metadata();
    let assets = deb["assets"].as_array().unwrap();
    let mut man_pages = 0;
    for asset in assets {
        let source = asset[0].as_str().unwrap();
        if source.starts_with("target/") {
            continue; // the build's binary
        }
        if let Some(dir) = source.strip_suffix("/*.1") {
            man_pages = std::fs::read_dir(root().join(dir)).unwrap().count();
            continue;
        }
        assert!(root().join(source).is_file(), "the package's asset {source} does not exist");
    }
    assert!(man_pages > 10, "the man pages are packaged ({man_pages})");
    let scripts = root().join(deb["maintainer-scripts"].as_str().unwrap());
    for file in ["postinst", "postrm", "ejctl.service"] {
        assert!(scripts.join(file).is_file(), "{} has no {file}", scripts.display());
    }
    let postinst = std::fs::read_to_string(scripts.join("postinst")).unwrap();
    assert!(postinst.contains("adduser --system") && postinst.contains("#DEBHELPER#"), "{postinst}");
}

/// The `ExecStart=` of a systemd unit, without the binary.
fn exec_start(unit: &str) -> Vec<String> {
    let line = unit.lines().find_map(|l| l.strip_prefix("ExecStart=")).unwrap();
    line.split_whitespace().skip(1).map(str::to_string).collect()
}

/// The words of a Containerfile's exec-form instruction (`ENTRYPOINT ["a", "b"]`).
fn exec_form(containerfile: &str, instruction: &str) -> Vec<String> {
    let line = containerfile.lines().find_map(|l| l.strip_prefix(instruction)).unwrap();
    serde_json::from_str(line.trim()).unwrap()
}

#[test]
fn the_units_and_the_image_run_commands_that_parse() {
    let mut commands = Vec::new();
    for unit in ["packaging/debian/ejctl.service", "examples/production/ejctl.service"] {
        commands.push((unit, exec_start(&std::fs::read_to_string(root().join(unit)).unwrap())));
    }
    let containerfile = std::fs::read_to_string(root().join("examples/production/Containerfile")).unwrap();
    let mut image = exec_form(&containerfile, "ENTRYPOINT");
    image.extend(exec_form(&containerfile, "CMD"));
    assert_eq!(image[0], "/usr/local/bin/ejctl");
    commands.push(("examples/production/Containerfile", image[1..].to_vec()));
    for (source, args) in commands {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl")).args(&args).arg("--help").output().unwrap();
        assert!(
            out.status.success(),
            "{source}: `ejctl {}` does not parse: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // What the image copies from the build stage is what its build stage builds.
    assert!(containerfile.contains("cargo build --release --locked --bin ejctl"), "{containerfile}");
    assert!(
        containerfile.contains("COPY --from=build /src/target/release/ejctl /usr/local/bin/ejctl"),
        "{containerfile}"
    );
}
