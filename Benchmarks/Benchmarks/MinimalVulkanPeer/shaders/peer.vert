#version 450
// A full-screen quad (triangle strip of four vertices) in clip space; no inputs, no varyings.
void main() {
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
