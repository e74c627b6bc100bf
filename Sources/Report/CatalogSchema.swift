import Foundation
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
        guard var catalog = try? JSONSerialization.jsonObject(with: Data(catalogPart.utf8)) as? [String: Any],
              var report = try? JSONSerialization.jsonObject(with: Data(jsonSchema.utf8)) as? [String: Any] else {
            preconditionFailure("the schemas are valid JSON")
        }
        var defs = report["$defs"] as? [String: Any] ?? [:]
        for k in ["$defs", "$schema", "$id"] { report.removeValue(forKey: k) }
        defs["report"] = report
        catalog["$defs"] = defs
        let data = (try? JSONSerialization.data(withJSONObject: catalog, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
