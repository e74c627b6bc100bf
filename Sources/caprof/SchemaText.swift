import SceneFormat
enum SceneSchemaText { static var text: String { SceneSchema.jsonSchema } }
