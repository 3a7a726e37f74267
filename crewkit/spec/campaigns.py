"""Designed campaigns: finding one (file, folder, zip, bundled or installed name), its checks, its typed model.

A campaign is a ``campaign.yaml`` with its missions beside it. Its references (the rule set, the missions) are
bundled names or paths relative to the campaign's folder, resolved by :func:`resolve_in_campaign`, the one
function that turns a campaign's reference into a file: a path may not leave the campaign's folder.

Where a campaign comes from gives its *identity* in the logbook: a bundled campaign is its name
(``planet-nine``), an installed pack ``pack:NAME``, a folder or zip its name and resolved location, so two
campaigns called "training" in different folders never share a logbook.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import stat
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from crewkit.spec import bundled
from crewkit.spec.errors import SpecError, SpecIssue, sort_issues
from crewkit.spec.loader import apply_readings, check_spec_file, load_doc, resolve_ruleset_data
from crewkit.spec.model import Campaign, CampaignMission
from crewkit.spec.yamlio import read_limited, real_path_within

ENTRY_POINT_GROUP = "crewkit.campaigns"
CAMPAIGN_FILE = "campaign.yaml"
UNLOCK_MODES = ("in-order", "free")
#: A zipped campaign is small text: refuse archives that would unpack to more (a zip bomb).
MAX_ZIP_MEMBERS = 500
MAX_ZIP_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class CampaignSource:
    """Where a campaign was found: its file, how it came (``bundled``, ``pack DIST``, ``folder``, ``zip``),
    and its identity in the logbook."""

    path: Path
    source: str
    identity: str
    name: str = ""


# ---------------------------------------------------------------------------- references inside a campaign
def _is_relative_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml"))


def resolve_in_campaign(folder: Path, ref: str, what: str = "mission") -> Path:
    """The file a campaign's reference names: a bundled id (``planet-nine/03``, ``crew``) or a path relative
    to the campaign's ``folder`` that stays inside it (symbolic links resolved). Raises
    :class:`bundled.NotFound` with a sentence for the user."""
    if not _is_relative_path(ref):
        return bundled.ruleset_path(ref) if what == "rule set" else bundled.mission_path(ref)
    rel = Path(ref)
    if rel.is_absolute() or ref.startswith(("/", "\\", "~")) or ".." in rel.parts:
        raise bundled.NotFound(f"{what} path {ref!r} leaves the campaign's folder: write a path relative to "
                               f"{folder} and inside it")
    root = folder.resolve()
    target = (root / rel).resolve()
    if target != root and root not in target.parents:
        raise bundled.NotFound(f"{what} path {ref!r} leads outside the campaign's folder {folder}")
    try:
        mode = target.stat().st_mode
    except OSError:
        raise bundled.NotFound(f"{what} file {ref!r} does not exist in {folder}") from None
    if not stat.S_ISREG(mode):
        raise bundled.NotFound(f"{what} {ref!r} in {folder} is not a regular file")
    return target


def mission_version(path: Path) -> str:
    """A short fingerprint of what a mission file says (its data, so an edited comment or a re-indented line is
    the same version); the logbook keeps attempts per version. A file that cannot be read as YAML: its bytes."""
    try:
        text = json.dumps(load_doc(path).data, sort_keys=True, ensure_ascii=False, default=str).encode()
    except SpecError:
        try:
            text = read_limited(path)
        except OSError:
            return ""
    return hashlib.sha256(text).hexdigest()[:16]


# ---------------------------------------------------------------------------- finding a campaign
def _entry_points() -> list[Any]:
    from importlib.metadata import entry_points

    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def _pack_file(ep: Any) -> Path:
    """The ``campaign.yaml`` an entry point names. Its value is a package (the campaign is in its folder),
    or an object that is (or returns) a path to a folder or a campaign file."""
    target = ep.load()
    if isinstance(target, ModuleType):
        paths = list(getattr(target, "__path__", []))  # a package: its folder; a module: the folder it is in
        location = Path(paths[0]) if paths else Path(str(target.__file__)).parent
    else:
        value = target() if callable(target) else target
        location = Path(str(value))
    return location / CAMPAIGN_FILE if location.is_dir() else location


def installed_campaigns() -> list[tuple[str, str, Path | None, str]]:
    """``(name, distribution, campaign file or None, problem)`` for every installed pack's entry point."""
    out: list[tuple[str, str, Path | None, str]] = []
    for ep in _entry_points():
        dist = getattr(getattr(ep, "dist", None), "name", None) or ep.value.split(":")[0].split(".")[0]
        version = getattr(getattr(ep, "dist", None), "version", None)
        label = f"{dist} {version}" if version else str(dist)
        try:
            path = _pack_file(ep)
        except Exception as exc:  # a broken pack must not hide the others
            out.append((ep.name, label, None, f"cannot be loaded: {type(exc).__name__}: {exc}"))
            continue
        problem = "" if path.is_file() else f"names {path}, which does not exist"
        out.append((ep.name, label, path if path.is_file() else None, problem))
    return out


def zip_cache_dir() -> Path:
    """Where zipped campaigns are unpacked: ``$CREWKIT_HOME/cache/campaigns`` (tests), else ``campaigns`` in
    the user's cache folder (:func:`crewkit.usercache.cache_dir`). Each zip gets a folder named by its contents'
    fingerprint, so the same zip unpacks once."""
    override = os.environ.get("CREWKIT_HOME")
    if override:
        return Path(override).expanduser() / "cache" / "campaigns"
    from crewkit.usercache import cache_dir

    return cache_dir() / "campaigns"


_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError, OSError)
"""What a damaged, truncated, encrypted or exotic zip raises while its members are read (a bad deflate stream
is ``zlib.error``, a truncated one ``EOFError``, a bad bzip2 stream ``OSError``)."""


_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2)


def _zip_contents(path: Path, raw: bytes) -> tuple[dict[str, bytes], str]:
    """Every file member of the zip ``raw`` (read from ``path``) by name, checked before anything is written (no
    member outside the folder, no links, bounded size and count), and the folder in it holding ``campaign.yaml``."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            members = zf.infolist()
            if len(members) > MAX_ZIP_MEMBERS or sum(m.file_size for m in members) > MAX_ZIP_BYTES:
                raise bundled.NotFound(f"campaign zip {path} is too large (more than {MAX_ZIP_MEMBERS} files or "
                                       f"{MAX_ZIP_BYTES // 1024 // 1024} MB unpacked)")
            files: dict[str, bytes] = {}
            for member in members:
                name = member.filename
                if (name.startswith(("/", "\\")) or ".." in Path(name).parts or ":" in name or "\\" in name
                        or "\x00" in name or any(part in ("", ".") for part in name.rstrip("/").split("/"))):
                    raise bundled.NotFound(f"campaign zip {path}: member {name!r} would leave the folder")
                if len(name) > 1024 or any(len(part) > 255 for part in name.split("/")):
                    raise bundled.NotFound(f"campaign zip {path}: member {name[:80]!r}... has too long a name")
                if (member.external_attr >> 16) & 0o170000 == stat.S_IFLNK:
                    raise bundled.NotFound(f"campaign zip {path}: member {name!r} is a symbolic link")
                if member.is_dir():
                    continue
                if member.compress_type not in _ZIP_METHODS:  # LZMA's header names the memory it takes (to 4 GB)
                    raise bundled.NotFound(f"campaign zip {path}: member {name!r} is compressed in a way crewkit "
                                           "does not unpack (it reads zips stored, deflated or bzip2-compressed)")
                if name in files:
                    raise bundled.NotFound(f"campaign zip {path}: member {name!r} is in it twice")
                files[name] = zf.read(member)  # CRC-checked, at most its announced size
    except bundled.NotFound:
        raise
    except _ZIP_ERRORS as exc:  # damaged, truncated, encrypted, an unknown compression, ...
        raise bundled.NotFound(f"campaign zip {path} is damaged or not a zip file: {exc}") from None
    prefixes = {name.rsplit("/", 1)[0] + "/" for name in files if "/" in name}
    clashes = sorted(n for n in files if n + "/" in prefixes)
    if clashes:
        raise bundled.NotFound(f"campaign zip {path}: {clashes[0]!r} is both a file and a folder")
    campaign_files = sorted((n for n in files if n.rsplit("/", 1)[-1] == CAMPAIGN_FILE), key=lambda n: n.count("/"))
    if not campaign_files:
        raise bundled.NotFound(f"campaign zip {path} holds no {CAMPAIGN_FILE}")
    inner = campaign_files[0].rsplit("/", 1)[0] if "/" in campaign_files[0] else ""
    return files, inner


def _private_chain(folder: Path, top: Path) -> bool:
    """Whether ``folder`` and every folder above it up to ``top`` (those that exist) are real folders of this
    user that nobody else may write to: nobody else can then plant or swap what crewkit unpacked there."""
    from crewkit.usercache import owned_and_private

    current = folder
    while True:
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            st = None
        except OSError:
            return False
        if st is not None and (not stat.S_ISDIR(st.st_mode) or not owned_and_private(st)):
            return False
        if current == top or current.parent == current:
            return True
        current = current.parent


def _matches(folder: Path, files: Mapping[str, bytes]) -> bool:
    """Whether ``folder`` holds exactly the files ``files`` (same names, same bytes, no links, nothing else)."""
    found: set[str] = set()
    for root, dirs, names in os.walk(folder):
        for name in names + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            full = Path(root, name)
            rel = full.relative_to(folder).as_posix()
            if rel not in files or full.is_symlink():
                return False
            try:
                if read_limited(full, MAX_ZIP_BYTES) != files[rel]:
                    return False
            except OSError:
                return False
            found.add(rel)
    return found == set(files)


def _write_tree(folder: Path, files: Mapping[str, bytes]) -> None:
    for name, data in files.items():
        out = folder / name
        out.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        out.write_bytes(data)


def _temporary_folder() -> Path:
    """A private folder for this run only, removed when the command ends."""
    import atexit
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="crewkit-campaign-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def unpack_zip(path: Path, *, write_cache: bool = True) -> Path:
    """Unpack a zipped campaign (safely: no member outside the folder, no links, bounded size) and return the
    folder holding its ``campaign.yaml``.

    The zip unpacks once into the cache (:func:`zip_cache_dir`, a folder per fingerprint of its bytes); what is
    found there is used only when it holds exactly the zip's files, byte for byte, in folders nobody else may
    write to: else the cached copy is replaced, or (a cache folder others can write to) the zip is unpacked into
    a private folder of this run. ``write_cache=False`` (``campaign status``, which writes nothing of the user's)
    uses a cached copy that passes, else such a private folder."""
    try:
        raw = read_limited(path, MAX_ZIP_BYTES)
    except OSError as exc:
        raise bundled.NotFound(f"campaign zip {path} cannot be read: {exc.strerror or exc}") from None
    if not raw:
        raise bundled.NotFound(f"campaign zip {path} is empty")
    files, inner = _zip_contents(path, raw)
    digest = hashlib.sha256(raw).hexdigest()[:20]
    root = zip_cache_dir()
    top = root.parent.parent if os.environ.get("CREWKIT_HOME") else root.parent
    dest = root / digest
    private = _private_chain(root, top)
    if private and _matches(dest, files):
        return dest / inner if inner else dest
    try:
        if not private or not write_cache:
            raise PermissionError("not the user's own cache")  # this run's own copy, below
        _replace_cached(root, dest, files)
    except OSError:  # a cache others can write, a read-only or full one: this run's own copy
        dest = _temporary_folder() / digest
        try:
            _write_tree(dest, files)
        except OSError as exc:
            raise bundled.NotFound(f"campaign zip {path} cannot be unpacked: {exc.strerror or exc}") from None
    return dest / inner if inner else dest


def _replace_cached(root: Path, dest: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` into the cache folder ``dest`` (under a temporary name, then renamed), replacing a copy
    there that does not match."""
    tmp = root / f".{dest.name}.{os.getpid()}.tmp"
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        shutil.rmtree(tmp, ignore_errors=True)  # left by a crash: start clean
        tmp.mkdir(mode=0o700)
        _write_tree(tmp, files)
        if dest.is_symlink() or dest.is_file():
            dest.unlink()
        elif dest.exists():  # a copy that does not match (a crash half-way): moved aside, then removed
            stale = root / f".{dest.name}.{os.getpid()}.stale"
            os.replace(dest, stale)
            shutil.rmtree(stale, ignore_errors=True)
        try:
            os.replace(tmp, dest)
        except OSError:
            if not _matches(dest, files):  # another process unpacked the same zip meanwhile: fine
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _location_identity(name: str, where: Path) -> str:
    return f"{name}@{where.resolve()}"


def find_campaign(ref: str, *, write_cache: bool = True) -> CampaignSource:
    """A campaign by reference: a file or folder path, a ``.zip``, a bundled name or an installed pack's name
    (then a folder of that name in the current directory). ``write_cache``: see :func:`unpack_zip`."""
    pathlike = bundled.looks_like_path(ref) or ref.endswith(".zip") or "/" in ref
    if not pathlike:
        path = bundled.missions_dir() / ref / CAMPAIGN_FILE
        if path.is_file():
            return CampaignSource(path, "bundled", ref, ref)
        for name, dist, pack_path, problem in installed_campaigns():
            if name == ref:
                if pack_path is None:
                    raise bundled.NotFound(f"installed campaign {ref!r} (from {dist}) {problem}")
                return CampaignSource(pack_path, f"pack {dist}", f"pack:{name}", name)
    path = Path(ref).expanduser()
    bundled_file = path / CAMPAIGN_FILE if path.is_dir() else path
    for known in bundled.bundled_campaigns():  # a bundled campaign named by its path is still that campaign
        if bundled_file.is_file() and known.resolve() == bundled_file.resolve():
            return CampaignSource(known, "bundled", known.parent.name, known.parent.name)
    if path.is_dir():
        file = path / CAMPAIGN_FILE
        if not file.is_file():
            raise bundled.NotFound(f"folder {ref} holds no {CAMPAIGN_FILE}")
        if real_path_within(file, [path]) is None:  # the folder is someone else's: its file must be in it
            raise bundled.NotFound(f"the {CAMPAIGN_FILE} of folder {ref} is a link to {file.resolve()}, outside "
                                   "the folder; crewkit follows a link only when it stays inside")
        return CampaignSource(file, "folder", _location_identity(_name_of(file), path), _name_of(file))
    if path.is_file():
        if path.suffix.lower() == ".zip":
            folder = unpack_zip(path, write_cache=write_cache)
            file = folder / CAMPAIGN_FILE
            return CampaignSource(file, "zip", _location_identity(_name_of(file), path), _name_of(file))
        return CampaignSource(path, "folder", _location_identity(_name_of(path), path.parent), _name_of(path))
    if pathlike:
        raise bundled.NotFound(f"campaign {ref!r}: no such file or folder")
    names = ", ".join(n for n, _, _ in known_campaign_names()) or "none"
    raise bundled.NotFound(f"unknown campaign {ref!r}; known campaigns: {names} (or give a folder, a "
                           f"campaign.yaml or a .zip)")


def _name_of(path: Path) -> str:
    try:
        data = load_doc(path).data  # cached: the campaign's own check reads the same document
        name = data.get("name") if isinstance(data, Mapping) else None
    except SpecError:
        name = None
    return str(name) if isinstance(name, str) and name else path.parent.name


def known_campaign_names() -> list[tuple[str, str, Path | None]]:
    """``(name, source, campaign file)`` of every bundled and installed campaign, bundled first."""
    out: list[tuple[str, str, Path | None]] = [(p.parent.name, "bundled", p) for p in bundled.bundled_campaigns()]
    for name, dist, path, _ in installed_campaigns():
        out.append((name, f"pack {dist}", path))
    return out


# ---------------------------------------------------------------------------- checks and the model
def _issue(doc: Any, path: tuple[str | int, ...], message: str, severity: str = "error") -> SpecIssue:
    line, col = doc.position_of(path)
    return SpecIssue(doc.filename, line, col, path, message, severity=severity)


def _entry_fields(item: Any) -> dict[str, Any]:
    return dict(item) if isinstance(item, Mapping) else {"mission": item}


def check_campaign_semantics(data: Mapping[str, Any], doc: Any, path: Path) -> list[SpecIssue]:
    """What the schema cannot check: every reference resolves inside the campaign's folder, every mission is
    valid, player counts are allowed by each mission's rule set, fixed readings exist, no mission twice."""
    folder = path.parent
    issues: list[SpecIssue] = []
    rulesets: dict[str, dict[str, Any] | None] = {}

    def ruleset_at(ref: Any, at: tuple[str | int, ...]) -> dict[str, Any] | None:
        if not isinstance(ref, str):
            return None
        if ref in rulesets:
            return rulesets[ref]
        rulesets[ref] = None
        try:
            rpath = resolve_in_campaign(folder, ref, "rule set")
        except bundled.NotFound as exc:
            issues.append(_issue(doc, at, str(exc)))
            return None
        problems = check_spec_file(rpath, "ruleset")
        errors = [i for i in problems if i.severity == "error"]
        if errors:
            first = errors[0]
            issues.append(_issue(doc, at, f"rule set {ref!r} has {len(errors)} error(s), the first at "
                                          f"{first.file}:{first.line}:{first.column}: {first.message}"))
            return None
        rdata, _, _ = resolve_ruleset_data(rpath)
        rulesets[ref] = rdata
        return rdata

    base = ruleset_at(data.get("ruleset"), ("ruleset",))
    fixed = data.get("readings") or {}
    if base is not None and isinstance(fixed, Mapping):
        known = {r.get("id"): r for r in base.get("readings") or [] if isinstance(r, Mapping)}
        for rid, option in fixed.items():
            reading = known.get(rid)
            if reading is None:
                issues.append(_issue(doc, ("readings", rid),
                                     f"the rule set {data.get('ruleset')!r} has no reading {rid!r}; readings: "
                                     f"{', '.join(sorted(map(str, known))) or 'none'}"))
            elif option not in (reading.get("options") or {}):
                issues.append(_issue(doc, ("readings", rid),
                                     f"reading {rid!r} has no option {option!r}; options: "
                                     f"{', '.join(reading.get('options') or {})}"))
    players = data.get("players")
    if base is not None and isinstance(players, list):
        for i, p in enumerate(players):
            if p not in (base.get("players") or []):
                issues.append(_issue(doc, ("players", i), f"{p} players is not allowed by rule set "
                                     f"{data.get('ruleset')!r} ({', '.join(map(str, base.get('players') or []))})"))
    seen: dict[str, int] = {}
    for i, item in enumerate(data.get("missions") or []):
        entry = _entry_fields(item)
        at: tuple[str | int, ...] = ("missions", i, "mission") if isinstance(item, Mapping) else ("missions", i)
        ref = entry.get("mission")
        if not isinstance(ref, str):
            continue
        try:
            mpath = resolve_in_campaign(folder, ref, "mission")
        except bundled.NotFound as exc:
            issues.append(_issue(doc, at, str(exc)))
            continue
        key = str(mpath.resolve())
        if key in seen:
            issues.append(_issue(doc, at, f"mission {ref!r} is listed twice (also as mission {seen[key] + 1})"))
            continue
        seen[key] = i
        rs_ref = entry.get("ruleset", data.get("ruleset"))
        rdata = ruleset_at(rs_ref, ("missions", i, "ruleset") if "ruleset" in entry else ("ruleset",))
        problems = [p for p in check_spec_file(mpath, "mission") if p.severity == "error"]
        if problems:
            first = problems[0]
            issues.append(_issue(doc, at, f"mission {ref!r} has {len(problems)} error(s), the first at "
                                          f"{first.file}:{first.line}:{first.column}: {first.message}"))
            continue
        if rdata is None:
            continue
        if fixed and isinstance(fixed, Mapping):
            try:
                rdata, _ = apply_readings(rdata, {str(k): str(v) for k, v in fixed.items()}, str(path))
            except SpecError:
                pass
        mdata = load_doc(mpath).data or {}
        allowed = [int(p) for p in (mdata.get("players") or rdata.get("players") or [])]
        wanted = entry.get("players") or players or []
        for k, p in enumerate(wanted if isinstance(wanted, list) else []):
            if p not in allowed:
                where = ("missions", i, "players", k) if "players" in entry else ("players", k)
                issues.append(_issue(doc, where, f"mission {ref!r} cannot be played by {p} under rule set "
                                     f"{rs_ref!r}: it allows {', '.join(map(str, allowed)) or 'no count'}"))
    return issues


def campaign_from(source: CampaignSource, *, deep: bool = True) -> Campaign:
    """The typed campaign of a found campaign file; raises :class:`SpecError` with every problem.

    ``deep=False`` (the app's first screen) checks the campaign file against its schema and resolves its
    references but does not validate every mission (each is validated when it is opened)."""
    from crewkit.spec.schema import validate_document

    path = source.path
    doc = load_doc(path)
    if deep:
        issues = check_spec_file(path, "campaign") or check_campaign_semantics(doc.data, doc, path)
    else:
        issues = validate_document(doc, "campaign")
    issues = [i for i in issues if i.severity == "error"]
    if issues:
        raise SpecError(sort_issues(issues), doc.lines)
    try:
        return _build(source, doc)
    except bundled.NotFound as exc:
        raise SpecError([SpecIssue(str(path), 1, 1, (), str(exc))], doc.lines) from None


def _build(source: CampaignSource, doc: Any) -> Campaign:
    path = source.path
    data = doc.data
    folder = path.parent
    players = tuple(int(p) for p in data.get("players") or [])
    ruleset_ref = str(data["ruleset"])
    ruleset = str(resolve_in_campaign(folder, ruleset_ref, "rule set")) if _is_relative_path(ruleset_ref) \
        else ruleset_ref
    entries: list[CampaignMission] = []
    for item in data.get("missions") or []:
        entry = _entry_fields(item)
        ref = str(entry["mission"])
        mpath = resolve_in_campaign(folder, ref, "mission")
        key = bundled.mission_id_for(mpath) if not _is_relative_path(ref) else Path(ref).as_posix()
        engine_ref = key if not _is_relative_path(ref) else str(mpath)
        rs = str(entry.get("ruleset", ruleset_ref))
        rs_resolved = str(resolve_in_campaign(folder, rs, "rule set")) if _is_relative_path(rs) else rs
        chapter = entry.get("chapter")
        if isinstance(chapter, Mapping):
            chapter_title, chapter_text = str(chapter.get("title", "")), str(chapter.get("text", ""))
        else:
            chapter_title, chapter_text = "", str(chapter or "")
        try:
            mdata = load_doc(mpath).data or {}
        except SpecError:  # shown as the mission's error when it is opened
            mdata = {}
        if not isinstance(mdata, Mapping):
            mdata = {}
        title = str(entry.get("title") or mdata.get("title") or key)
        entries.append(CampaignMission(
            key=key, ref=engine_ref, ruleset=rs_resolved,
            players=tuple(int(p) for p in entry.get("players") or players),
            title=title, chapter_title=chapter_title, chapter_text=" ".join(chapter_text.split()),
            version=mission_version(mpath), path=mpath,
        ))
    name = str(data.get("name") or source.name or folder.name)
    return Campaign(
        name=name, title=str(data.get("title") or name), ruleset=ruleset,
        missions=tuple(e.key for e in entries), path=path,
        description=" ".join(str(data.get("description") or "").split()), players=players,
        unlock=str(data.get("unlock") or "free"),
        hints=str(data.get("hints") or "allowed"),
        readings={str(k): str(v) for k, v in (data.get("readings") or {}).items()},
        entries=tuple(entries), identity=source.identity or name, source=source.source,
    )


def load_campaign(ref: str, *, deep: bool = True, write_cache: bool = True) -> Campaign:
    """A campaign by file, folder, zip, bundled or installed name; raises :class:`SpecError`. ``write_cache``
    False: a zip is not unpacked into the user's cache (:func:`unpack_zip`; ``campaign status`` writes nothing)."""
    try:
        source = find_campaign(ref, write_cache=write_cache)
    except bundled.NotFound as exc:
        raise SpecError([SpecIssue(ref, 0, 0, (), str(exc))]) from None
    return campaign_from(source, deep=deep)


_SLUG = re.compile(r"[^A-Za-z0-9_.-]+")


def identity_slug(identity: str) -> str:
    """A file-name-safe form of a campaign identity (for in-progress save keys)."""
    if "@" not in identity:
        return _SLUG.sub("_", identity)
    name = identity.split("@", 1)[0]
    return f"{_SLUG.sub('_', name)}-{hashlib.sha256(identity.encode()).hexdigest()[:10]}"
