/// SPIR-V words of the shaders in Shaders/, one `static let shader_<name>_<stage>: [UInt32]` per
/// file, generated at build time by the ShaderCompiler plugin (glslc); nothing is compiled at run time.
enum SPIRV {}
