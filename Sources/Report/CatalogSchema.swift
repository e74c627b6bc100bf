import SystemSupport
import Profile

extension ReportSchema {
    /// The JSON Schema (draft 2020-12) of a catalog report (`caprof profile DIR|SCENE… --format
    /// json`): each scene is a report as `jsonSchema` describes it (embedded under
    /// `$defs/report`, its own definitions beside it), then the totals and the optional shard.
    public static var catalogSchema: String {
        let catalogPart = """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://caprof.dev/catalog.schema.json",
          "title": "caprof catalog report",
          "description": "What `caprof profile DIR|SCENE… --format json` writes for a catalog (a directory, several scenes, or --shard I/N): one profile report per scene in catalog order, and totals (each the sum of the same number over the scenes).",
          "type": "object",
          "required": ["caprofCatalog", "tool", "scenes", "totals"],
          "additionalProperties": false,
          "properties": {
            "caprofCatalog": {"const": \(CatalogReport.currentVersion), "description": "Catalog format version."},
            "tool": {
              "type": "object", "additionalProperties": false, "required": ["name", "version"],
              "properties": {"name": {"const": "caprof"}, "version": {"type": "string"}}
            },
            "scenes": {"type": "array", "items": {"$ref": "#/$defs/report"}},
            "errors": {
              "type": "array", "description": "Scenes that could not be loaded or profiled, in catalog order; every other scene is reported all the same.",
              "items": {
                "type": "object", "additionalProperties": false, "required": ["file", "message", "position"],
                "properties": {
                  "file": {"type": "string"}, "message": {"type": "string", "description": "The located error a single run prints (file:line:column: error: …)."},
                  "line": {"type": "integer", "minimum": 1}, "column": {"type": "integer", "minimum": 1},
                  "position": {"$ref": "#/$defs/count", "description": "Its place in the catalog (or shard), counting the scenes reported too."}
                }
              }
            },
            "totals": {
              "type": "object", "additionalProperties": false,
              "required": ["scenes", "frames", "layers", "findings", "findingsBySeverity", "findingsById", "shadedPixels",
                           "blendedPixels", "offscreenPasses", "offscreenPixels", "warnings", "gpuScenes", "stageNanoseconds"],
              "properties": {
                "scenes": {"$ref": "#/$defs/count"}, "frames": {"$ref": "#/$defs/count"}, "layers": {"$ref": "#/$defs/count"},
                "findings": {"$ref": "#/$defs/count"},
                "findingsBySeverity": {
                  "type": "object", "additionalProperties": false, "required": \(list(Severity.allCases)),
                  "properties": {\(Severity.allCases.map { "\"\($0.rawValue)\": {\"$ref\": \"#/$defs/count\"}" }.joined(separator: ", "))}
                },
                "findingsById": {
                  "type": "object", "propertyNames": {"enum": \(list(FindingID.allCases))},
                  "additionalProperties": {"$ref": "#/$defs/count"}
                },
                "shadedPixels": {"$ref": "#/$defs/count", "description": "Fragments shaded (each frame's shadedPixels), summed over every frame of every scene."},
                "blendedPixels": {"$ref": "#/$defs/count", "description": "Blended pixels (each frame's blendedPixels: canvas pixels whose final colour involves blending), summed over every frame of every scene."},
                "offscreenPasses": {"$ref": "#/$defs/count"}, "offscreenPixels": {"$ref": "#/$defs/count"},
                "warnings": {"$ref": "#/$defs/count"},
                "gpuScenes": {"$ref": "#/$defs/count", "description": "Scenes drawn on a GPU (the others: plan only)."},
                "softwareScenes": {"$ref": "#/$defs/count", "description": "Of gpuScenes, those drawn by software Vulkan on the CPU (lavapipe): their GPU time is CPU time."},
                "stageNanoseconds": {
                  "type": "object", "description": "Per stage, nanoseconds over every frame of every scene.",
                  "propertyNames": {"enum": ["evaluate", "plan", "analyze", "raster", "upload", "record", "render", "gpu"]},
                  "additionalProperties": {"$ref": "#/$defs/nanoseconds"}
                },
                "uploadedBytes": {"$ref": "#/$defs/count"}
              }
            },
            "shard": {
              "type": "object", "additionalProperties": false, "required": ["index", "count", "catalogScenes", "positions"],
              "description": "Present for --shard I/N: which share of the catalog this is, and each scene's position in the whole catalog.",
              "properties": {
                "index": {"type": "integer", "minimum": 1}, "count": {"type": "integer", "minimum": 1},
                "catalogScenes": {"$ref": "#/$defs/count"},
                "positions": {"type": "array", "items": {"$ref": "#/$defs/count"}, "uniqueItems": true}
              }
            }
          },
          "$defs": {}
        }
        """
        // The report schema's body becomes $defs/report; its definitions join the catalog's, so
        // its references (#/$defs/frame …) resolve unchanged.
        guard case .object(var catalog)? = try? JSONDecoder().decode(SchemaJSON.self, from: Data(catalogPart.utf8)),
              case .object(var report)? = try? JSONDecoder().decode(SchemaJSON.self, from: Data(jsonSchema.utf8)) else {
            preconditionFailure("the schemas are valid JSON")
        }
        guard case .object(var defs) = report["$defs"] ?? .object([:]) else { preconditionFailure("$defs is an object") }
        for k in ["$defs", "$schema", "$id"] { report.removeValue(forKey: k) }
        defs["report"] = .object(report)
        catalog["$defs"] = .object(defs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(SchemaJSON.object(catalog))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// A JSON value as the schemas hold it, to merge the report schema into the catalog schema;
/// integers stay integers ("minimum": 1, not 1.0).
private indirect enum SchemaJSON: Codable {
    case null, bool(Bool), integer(Int), number(Double), string(String), array([SchemaJSON]), object([String: SchemaJSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([SchemaJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: SchemaJSON].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
