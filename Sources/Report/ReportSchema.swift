import Plan
import Profile

/// The JSON Schema (draft 2020-12) of the JSON report, written by hand beside the types it
/// describes (`ProfileReport` and what it holds); the enumerations come from the Swift enums so
/// they cannot drift. Tests validate real reports against it with an independent validator.
public enum ReportSchema {
    static func list<T: RawRepresentable>(_ cases: [T]) -> String where T.RawValue == String {
        "[" + cases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + "]"
    }

    public static let jsonSchema: String = """
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://caprof.dev/report.schema.json",
      "title": "caprof profile report",
      "description": "What `caprof profile --format json` writes: per-frame counters and costs, and findings with stable ids (scene-format.md, 'the finding vocabulary').",
      "type": "object",
      "required": ["caprofReport", "tool", "scene", "run", "frames", "findings", "totals", "warnings"],
      "additionalProperties": false,
      "properties": {
        "caprofReport": {"const": \(ProfileReport.currentVersion), "description": "Report format version."},
        "startup": {
          "type": "object", "additionalProperties": false,
          "required": ["wallNanoseconds", "uploadNanoseconds", "uploadedBytes", "recordNanoseconds"],
          "description": "The first frame's one-time work (pipelines, shader compilation, first uploads), drawn once before the profiled frames; absent when nothing was drawn. Never part of a per-frame cost.",
          "properties": {
            "wallNanoseconds": {"$ref": "#/$defs/nanoseconds"}, "uploadNanoseconds": {"$ref": "#/$defs/nanoseconds"},
            "uploadedBytes": {"type": "integer", "minimum": 0}, "recordNanoseconds": {"$ref": "#/$defs/nanoseconds"}
          }
        },
        "tool": {
          "type": "object", "additionalProperties": false, "required": ["name", "version"],
          "properties": {"name": {"const": "caprof"}, "version": {"type": "string"}}
        },
        "scene": {
          "type": "object", "additionalProperties": false, "required": ["file", "canvas", "layers", "duration", "fps"],
          "properties": {
            "file": {"type": "string"},
            "canvas": {
              "type": "object", "additionalProperties": false,
              "required": ["width", "height", "scale", "pixelWidth", "pixelHeight"],
              "properties": {
                "width": {"type": "number", "exclusiveMinimum": 0}, "height": {"type": "number", "exclusiveMinimum": 0},
                "scale": {"type": "number", "exclusiveMinimum": 0},
                "pixelWidth": {"type": "integer", "minimum": 1}, "pixelHeight": {"type": "integer", "minimum": 1}
              }
            },
            "layers": {"type": "integer", "minimum": 1},
            "duration": {"type": "number", "minimum": 0, "description": "Seconds of the timeline."},
            "fps": {"type": "number", "exclusiveMinimum": 0}
          }
        },
        "run": {
          "type": "object", "additionalProperties": false,
          "required": ["gpu", "fps", "frameCount", "firstFrame", "lastFrame"],
          "properties": {
            "gpu": {"type": "boolean", "description": "false: plan only (--no-gpu), no backend costs."},
            "device": {"type": "string"},
            "deviceKind": {"enum": ["discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"], "description": "CPU: software Vulkan (lavapipe); its GPU times are CPU time."},
            "fps": {"type": "number", "exclusiveMinimum": 0},
            "frameCount": {"type": "integer", "minimum": 0},
            "firstFrame": {"type": "integer", "minimum": 0},
            "lastFrame": {"type": "integer", "minimum": 0}
          }
        },
        "frames": {"type": "array", "items": {"$ref": "#/$defs/frame"}},
        "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
        "totals": {
          "type": "object", "additionalProperties": false,
          "required": ["frames", "findings", "findingsBySeverity", "meanShadedPixels", "meanBlendedPixels", "meanEdgeBlendedPixels",
                       "meanDrawnPixels", "meanOverdraw", "meanCPUNanoseconds",
                       "maxOverdraw", "offscreenPasses", "offscreenPixels", "stages"],
          "properties": {
            "frames": {"type": "integer", "minimum": 0},
            "findings": {"type": "integer", "minimum": 0},
            "findingsBySeverity": {
              "type": "object", "additionalProperties": false, "required": \(list(Severity.allCases)),
              "properties": {\(Severity.allCases.map { "\"\($0.rawValue)\": {\"type\": \"integer\", \"minimum\": 0}" }.joined(separator: ", "))}
            },
            "worstFrame": {"type": "integer", "minimum": 0, "description": "The frame shading the most pixels (ties: the most blended pixels, then the earliest); overlays show it by default."},
            "meanShadedPixels": {"type": "number", "minimum": 0},
            "meanBlendedPixels": {"type": "number", "minimum": 0},
            "meanEdgeBlendedPixels": {"type": "number", "minimum": 0},
            "meanCPUNanoseconds": {"$ref": "#/$defs/nanoseconds", "description": "CPU per frame: the mean of evaluate + plan + upload + record (the profiler's analyze apart)."},
            "meanDrawnPixels": {"type": "number", "minimum": 0},
            "meanOverdraw": {"type": "number", "minimum": 0},
            "maxOverdraw": {"type": "integer", "minimum": 0, "maximum": 254},
            "offscreenPasses": {"type": "integer", "minimum": 0},
            "offscreenPixels": {"type": "integer", "minimum": 0},
            "stages": {
              "type": "object", "additionalProperties": false, "required": ["evaluate", "plan", "analyze"],
              "properties": {
                "evaluate": {"$ref": "#/$defs/stage"}, "plan": {"$ref": "#/$defs/stage"}, "analyze": {"$ref": "#/$defs/stage"},
                "raster": {"$ref": "#/$defs/stage"}, "upload": {"$ref": "#/$defs/stage"}, "record": {"$ref": "#/$defs/stage"}, "render": {"$ref": "#/$defs/stage"}, "gpu": {"$ref": "#/$defs/stage"}
              }
            },
            "uploadedBytes": {"type": "integer", "minimum": 0},
            "peakTextureBytes": {"type": "integer", "minimum": 0},
            "peakTextureSharing": {"type": "object", "additionalProperties": false, "required": ["textures", "layers", "bytes", "savedBytes"],
                  "description": "Textures the items sample, the layers drawing from them, their bytes (4 a texel) and the bytes one texture per layer and content would add.",
                  "properties": {"textures": {"$ref": "#/$defs/count"}, "layers": {"$ref": "#/$defs/count"}, "bytes": {"$ref": "#/$defs/count"}, "savedBytes": {"$ref": "#/$defs/count"}}},
            "meanDrawCalls": {"type": "number", "minimum": 0},
            "meanDamagedPixels": {"type": "number", "minimum": 0, "description": "Flash Updated Regions: the mean of counters.damagedPixels."},
            "reusedFrames": {"type": "integer", "minimum": 0, "description": "Frames whose plan was unchanged: not drawn again (frameCache = reused)."},
            "meanRetainedPasses": {"type": "number", "minimum": 0, "description": "Mean of cost.retainedPasses: offscreen passes per frame caprof took from the previous frame instead of rendering them (its own saving; findings count every pass)."},
            "meanPartialPasses": {"type": "number", "minimum": 0, "description": "Mean of cost.partialPasses: offscreen passes per frame caprof redrew only where they changed, onto the previous frame's result (its own saving; findings count every pass whole)."},
            "meanCulledItems": {"type": "number", "minimum": 0, "description": "Mean of cost.culledItems (caprof's own saving)."},
            "meanFlattenedItems": {"type": "number", "minimum": 0, "description": "Mean of cost.flattenedItems (caprof's own saving)."},
            "meanStackCulledPixels": {"type": "number", "minimum": 0, "description": "Mean of cost.stackCulledPixels (caprof's own saving)."}
          }
        },
        "warnings": {
          "type": "array",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["message"],
            "properties": {"message": {"type": "string"}, "location": {"$ref": "#/$defs/location"}}
          }
        },
        "layerPixels": {
          "type": "array",
          "description": "Per layer that draws (sorted by name), the most it shaded and blended in one frame, whether or not it raises a finding: what lets `caprof gate` blame the layer whose cost changed.",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["layer", "shadedPixels", "blendedFragments"],
            "properties": {
              "layer": {"type": "string", "description": "Its name, else its index path from the root (2.1; root for the root), as findings name it."},
              "line": {"type": "integer", "minimum": 1},
              "shadedPixels": {"$ref": "#/$defs/count", "description": "Fragments its items shade (its share of shadedPixels), the most of one frame."},
              "blendedFragments": {"$ref": "#/$defs/count", "description": "Of those, fragments that blend wherever they cover (translucent paint, opacity, image alpha, shadows, masked results, blend modes; antialiased edges apart), the most of one frame."}
            }
          }
        }
      },
      "$defs": {
        "count": {"type": "integer", "minimum": 0},
        "nanoseconds": {"type": "integer", "minimum": 0},
        "stage": {
          "type": "object", "additionalProperties": false, "required": ["totalNanoseconds", "meanNanoseconds", "maxNanoseconds"],
          "properties": {
            "totalNanoseconds": {"$ref": "#/$defs/nanoseconds"}, "meanNanoseconds": {"$ref": "#/$defs/nanoseconds"},
            "maxNanoseconds": {"$ref": "#/$defs/nanoseconds"}
          }
        },
        "location": {
          "type": "object", "additionalProperties": false, "required": ["file", "line", "column"],
          "properties": {"file": {"type": "string"}, "line": {"type": "integer", "minimum": 1}, "column": {"type": "integer", "minimum": 1}}
        },
        "pixelRect": {
          "type": "object", "additionalProperties": false, "required": ["x", "y", "width", "height"],
          "properties": {
            "x": {"type": "integer", "minimum": 0}, "y": {"type": "integer", "minimum": 0},
            "width": {"type": "integer", "minimum": 1}, "height": {"type": "integer", "minimum": 1}
          }
        },
        "size": {"type": "array", "items": {"type": "number", "minimum": 0}, "minItems": 2, "maxItems": 2},
        "frame": {
          "type": "object", "additionalProperties": false, "required": ["index", "time", "counters", "cost", "findings"],
          "properties": {
            "index": {"type": "integer", "minimum": 0},
            "time": {"type": "number", "minimum": 0, "description": "Scene seconds: index / fps."},
            "counters": {
              "type": "object", "additionalProperties": false,
              "required": ["items", "offscreenPasses", "offscreenPixels", "canvasPixels", "drawnPixels", "shadedPixels", "blendedPixels",
                           "edgeBlendedPixels", "overdraw", "maxOverdraw", "overdrawHistogram"],
              "properties": {
                "items": {"$ref": "#/$defs/count"}, "offscreenPasses": {"$ref": "#/$defs/count"},
                "offscreenPixels": {"$ref": "#/$defs/count"}, "canvasPixels": {"$ref": "#/$defs/count"},
                "drawnPixels": {"$ref": "#/$defs/count", "description": "Canvas pixels drawn at least once (≤ canvasPixels)."},
                "shadedPixels": {"$ref": "#/$defs/count", "description": "Fragments: the sum over draw items of the pixels each draws; a cost, not a share of the screen."},
                "blendedPixels": {"$ref": "#/$defs/count", "description": "Canvas pixels whose final colour involves blending: the red and orange of the blended overlay (≤ canvasPixels)."},
                "edgeBlendedPixels": {"$ref": "#/$defs/count", "description": "The part of blendedPixels blended only by partial coverage: antialiased edges, rounded corners, rounded clip rims (the overlay's orange)."},
                "overdraw": {"type": "number", "minimum": 0, "description": "Android's overdraw: draws beyond the first per canvas pixel, (shadedPixels − drawnPixels) / canvasPixels."},
                "maxOverdraw": {"type": "integer", "minimum": 0, "maximum": 254, "description": "The most draws beyond the first on one pixel."},
                "overdrawHistogram": {"type": "array", "items": {"$ref": "#/$defs/count"}, "minItems": 5, "maxItems": 5,
                                      "description": "Pixels drawn 0, 1, 2, 3 and 4-or-more times."},
                "rasterCacheHits": {"$ref": "#/$defs/count", "description": "shouldRasterize layers drawn from the cache."},
                "rasterCacheMisses": {"$ref": "#/$defs/count", "description": "shouldRasterize layers rendered again."},
                "textureSharing": {"type": "object", "additionalProperties": false, "required": ["textures", "layers", "bytes", "savedBytes"],
                  "description": "Textures the items sample, the layers drawing from them, their bytes (4 a texel) and the bytes one texture per layer and content would add.",
                  "properties": {"textures": {"$ref": "#/$defs/count"}, "layers": {"$ref": "#/$defs/count"}, "bytes": {"$ref": "#/$defs/count"}, "savedBytes": {"$ref": "#/$defs/count"}}},
                "damagedPixels": {"$ref": "#/$defs/count", "description": "Flash Updated Regions: device pixels changed since the previous frame (the plan's damage; the whole canvas for the first frame)."}
              }
            },
            "frameCache": {"enum": \(list(FrameCacheUse.allCases)),
                           "description": "full: drawn whole; damaged: only the damaged rectangles drawn again; reused: nothing changed, not drawn again (pixels and GPU timings are the previous frame's)."},
            "damage": {"type": "array", "items": {"$ref": "#/$defs/pixelRect"}, "description": "The damaged rectangles (disjoint), when only part of the canvas changed."},
            "analysisReused": {"type": "boolean", "description": "The plan and layers equal the previous frame's: its analysis (counters, findings) was reused."},
            "passes": {
              "type": "array", "description": "The frame's offscreen passes in execution order (the render graph).",
              "items": {
                "type": "object", "additionalProperties": false, "required": ["reasons", "layer", "width", "height", "kind", "inputs"],
                "properties": {
                  "reasons": {"type": "array", "items": {"enum": \(list(OffscreenReason.allCases))}, "minItems": 1},
                  "layer": {"type": "integer"},
                  "width": {"type": "integer", "minimum": 1}, "height": {"type": "integer", "minimum": 1},
                  "kind": {"enum": ["draw", "blur", "color", "capture", "cache", "blend"]},
                  "inputs": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                  "gpuNanoseconds": {"$ref": "#/$defs/nanoseconds"},
                  "drawnOnScreen": {"const": true, "description": "An item of the screen draws the result (absent: only later passes read it)."}
                }
              }
            },
            "cost": {
              "type": "object", "additionalProperties": false,
              "required": ["evaluateNanoseconds", "planNanoseconds", "analyzeNanoseconds"],
              "properties": {
                "evaluateNanoseconds": {"$ref": "#/$defs/nanoseconds"}, "planNanoseconds": {"$ref": "#/$defs/nanoseconds"},
                "analyzeNanoseconds": {"$ref": "#/$defs/nanoseconds"}, "recordNanoseconds": {"$ref": "#/$defs/nanoseconds"},
                "rasterNanoseconds": {"$ref": "#/$defs/nanoseconds"},
                "uploadNanoseconds": {"$ref": "#/$defs/nanoseconds"},
                "renderNanoseconds": {"$ref": "#/$defs/nanoseconds"}, "gpuNanoseconds": {"$ref": "#/$defs/nanoseconds"},
                "uploadedBytes": {"$ref": "#/$defs/count"}, "textureBytes": {"$ref": "#/$defs/count"},
                "drawCalls": {"$ref": "#/$defs/count"},
                "passGPUNanoseconds": {"type": "array", "items": {"$ref": "#/$defs/nanoseconds"}},
                "retainedPasses": {"$ref": "#/$defs/count", "description": "Offscreen passes not rendered: their results were the previous frame's (caprof's shortcut; the findings count them)."},
                "partialPasses": {"$ref": "#/$defs/count", "description": "Offscreen passes redrawn only where they changed, onto the previous frame's result (caprof's shortcut; the findings count them whole)."},
                "culledItems": {"$ref": "#/$defs/count", "description": "Draw items caprof did not draw because opaque content above hides them (its shortcut; the findings count them)."},
                "flattenedItems": {"$ref": "#/$defs/count", "description": "Draw items caprof blended in registers in flattened regions, one draw per region (its shortcut)."},
                "stackCulledPixels": {"$ref": "#/$defs/count", "description": "The plan's estimate of layer pixels caprof did not draw beneath stacks of layers that hide them to within 1/255 (K translucent layers, or one opaque; its shortcut; the findings count them)."}
              }
            },
            "findings": {"type": "array", "items": {"enum": \(list(FindingID.allCases))}, "uniqueItems": true}
          }
        },
        "finding": {
          "type": "object", "additionalProperties": false,
          "required": ["id", "severity", "layer", "phase", "frames", "frameCount", "worstFrame", "maxPixels", "totalPixels",
                       "canvasShare", "explanation", "fix", "evidence"],
          "properties": {
            "id": {"enum": \(list(FindingID.allCases)), "description": "Stable id (scene-format.md)."},
            "severity": {"enum": \(list(Severity.allCases)),
                         "description": "From canvasShare: high ≥ \(Severity.highShare), medium ≥ \(Severity.mediumShare), else low; at most low for a misalignment seen only mid-animation."},
            "layer": {
              "type": "object", "additionalProperties": false, "required": ["id", "path", "display"],
              "properties": {
                "id": {"type": "integer", "description": "The layer id: its preorder index in the scene (root 0; layers inserted by transactions follow); negative for the previous state a CATransition shows (−(id + 1))."},
                "name": {"type": "string"},
                "path": {"type": "array", "items": {"type": "integer", "minimum": 0}, "description": "Sublayer indices from the root."},
                "display": {"type": "string", "description": "The name, else the index path ('2.1'; 'root')."},
                "location": {"$ref": "#/$defs/location"}
              }
            },
            "phase": {"enum": ["at-rest", "mid-animation"]},
            "frames": {
              "type": "array", "minItems": 1,
              "items": {
                "type": "object", "additionalProperties": false, "required": ["first", "last"],
                "properties": {"first": {"type": "integer", "minimum": 0}, "last": {"type": "integer", "minimum": 0}}
              }
            },
            "frameCount": {"type": "integer", "minimum": 1},
            "worstFrame": {"type": "integer", "minimum": 0},
            "maxPixels": {"$ref": "#/$defs/count"},
            "totalPixels": {"$ref": "#/$defs/count"},
            "canvasShare": {"type": "number", "minimum": 0, "maximum": 1},
            "members": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/finding"},
                        "description": "A group of near-identical findings (same id, phase and fix) on several layers: each layer's own finding, costliest first. The group's pixels are their sum and its layer the first member's."},
            "explanation": {"type": "string", "minLength": 1},
            "fix": {"type": "string", "minLength": 1},
            "gpuNanoseconds": {"$ref": "#/$defs/nanoseconds", "description": "Measured device time of its offscreen passes over the run."},
            "maxGPUNanoseconds": {"$ref": "#/$defs/nanoseconds", "description": "The same in its costliest frame."},
            "cpuNanoseconds": {"$ref": "#/$defs/nanoseconds", "description": "raster.cpu: measured CPU time rasterising its content over the run."},
            "maxCPUNanoseconds": {"$ref": "#/$defs/nanoseconds", "description": "The same in its costliest frame."},
            "saving": {
              "type": "object", "additionalProperties": false,
              "required": ["frame", "fix", "offscreenPasses", "offscreenPixels", "shadedPixels", "blendedPixels"],
              "description": "What the finding's fix saves in its worst frame, measured by planning and analysing that frame again with the fix applied to the layer tree (the same with or without a GPU). Negative figures: the fix costs more there than it saves.",
              "properties": {
                "frame": {"type": "integer", "minimum": 0},
                "fix": {"type": "string", "minLength": 1, "description": "What was changed, e.g. shadowPath set to the layer's rounded bounds."},
                "offscreenPasses": {"type": "integer", "description": "Offscreen passes no longer rendered."},
                "offscreenPixels": {"type": "integer", "description": "Device pixels of the offscreen targets no longer rendered."},
                "shadedPixels": {"type": "integer", "description": "Fragments no longer shaded on the screen."},
                "blendedPixels": {"type": "integer", "description": "Screen pixels no longer blended."},
                "gpuNanoseconds": {"type": "integer", "description": "With a GPU: device time the frame no longer takes, median of three draws with and without the fix, on run.device (software Vulkan's is CPU time)."}
              }
            },
            "evidence": {
              "type": "object", "additionalProperties": false,
              "properties": {
                "blendReasons": {"type": "array", "items": {"enum": \(list(BlendReason.allCases))}},
                "colorAlpha": {"type": "number", "minimum": 0, "maximum": 1},
                "opacity": {"type": "number", "minimum": 0, "maximum": 1},
                "imageOpaquePixels": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2, "description": "blended, for a contents image with an alpha channel: its opaque pixels and all its pixels (alpha-channel: all opaque, blended only for the channel)."},
                "part": {"enum": ["bounds", "contents"]},
                "deviceRect": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4},
                "imagePixels": {"$ref": "#/$defs/size"},
                "shownPixels": {"$ref": "#/$defs/size"},
                "transformed": {"type": "boolean"},
                "property": {"enum": ["contentsScale", "rasterizationScale"]},
                "value": {"type": "number"},
                "canvasScale": {"type": "number", "exclusiveMinimum": 0},
                "passBounds": {"$ref": "#/$defs/pixelRect"},
                "feature": {"type": "string"},
                "invalidation": {
                  "type": "object", "additionalProperties": false, "required": ["kind"],
                  "properties": {
                    "kind": {"enum": ["firstUse", "propertyChanged", "contentChanged", "rasterizationScaleChanged", "evictedUnused", "evictedCacheFull"]},
                    "layer": {"type": "integer"}, "layerName": {"type": "string"}, "property": {"type": "string"},
                    "from": {"type": "number"}, "to": {"type": "number"}, "idleSeconds": {"type": "number", "minimum": 0}
                  }
                },
                "filterSources": {"type": "array", "items": {"enum": ["filters", "compositingFilter"]}, "description": "offscreen.filter: whether filters, a compositingFilter or both ask for the passes."},
                "rasterContent": {"enum": ["shape", "text", "gradient", "shadow"], "description": "raster.cpu, blended, misaligned.scaled: the layer's rasterised content (shadow: a shadowPath's shadow filled and blurred on the CPU)."},
                "rasterChange": {"type": "string", "description": "raster.cpu: what changed (strokeStart/strokeEnd, path, string, …; appeared: a layer new since the frame before; came into view: a layer that was off the canvas or hidden)."},
                "rasterPixels": {"$ref": "#/$defs/size"},
                "uploadedBytes": {"$ref": "#/$defs/count"}
              }
            }
          }
        }
      }
    }
    """
}
