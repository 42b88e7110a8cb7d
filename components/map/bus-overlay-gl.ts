// The bus overlay's WebGL2 side: one point sprite per bus whose vertex shader places it between two points of
// its route by the time uniform, so a moving bus costs the main thread nothing per frame but a uniform. Points,
// not instanced quads: software GL (SwiftShader) pays a fixed cost per instance that made 5,000 instanced buses
// cost ~0.5 s a frame, where one draw of 5,000 points runs as a single batch. The
// fragment shader draws each basis its own way: a fix a filled disc, an estimate from a fix a dot in a ring, an
// estimate from the schedule a dashed hollow ring; stale buses faded; the heading arrow's tip; the uncertainty
// circle and the selection halo in their own passes.

/** Floats per bus in the instance buffer (see INSTANCE_LAYOUT). */
export const FLOATS_PER_BUS = 16;

/** Offsets (in floats) of each field of one bus's instance data. */
export const INSTANCE_LAYOUT = {
  /** From x, y, to x, y: Web Mercator (0..1 world) minus the overlay's origin, so float32 keeps centimetres. */
  path: 0,
  /** t0, t1 (s since the overlay's epoch), uncertainty radius at t0 and t1 (m). */
  time: 4,
  /** r, g, b, a of the delay class (0..1). */
  color: 8,
  /** basis (0 fix, 1 from a fix, 2 from the schedule), stale (0/1), heading (deg, −1 none), shown (0/1). */
  style: 12,
} as const;

export const BASIS_CODE = { fix: 0, 'gps-estimate': 1, 'schedule-estimate': 2 } as const;

const VERTEX = `#version 300 es
precision highp float;
precision highp int;
layout(location = 0) in vec4 a_path;
layout(location = 1) in vec4 a_time;
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec4 a_style;
uniform vec2 u_origin;
uniform float u_world;
uniform vec2 u_viewport;
uniform float u_time;
uniform float u_mPerPx;
uniform float u_radius;
uniform int u_pass;
uniform float u_ratio;
uniform float u_maxPoint;
uniform float u_arrows;
out float v_half;
out vec4 v_color;
out vec4 v_style;
out float v_uncertainty;
void main() {
  float span = a_time.y - a_time.x;
  float k = span > 0.0 ? clamp((u_time - a_time.x) / span, 0.0, 1.0) : 0.0;
  vec2 px = u_origin + mix(a_path.xy, a_path.zw, k) * u_world;
  float uncertainty = mix(a_time.z, a_time.w, k) / u_mPerPx;
  // As small as what the pass draws: software GL pays for every pixel of every point.
  bool arrow = u_arrows > 0.5 && a_style.z >= 0.0;
  float halfSide = u_pass == 0 ? uncertainty + 1.0 : u_pass == 1 ? u_radius * 1.9 + 1.0 : u_radius * (arrow ? 1.55 : 1.0) + 1.0;
  // A circle wider than the largest point the GL draws is not cut square: it is left out (it spans the view).
  bool hidden = a_style.w < 0.5 || (u_pass == 0 && (a_style.x < 0.5 || uncertainty <= u_radius || 2.0 * halfSide * u_ratio > u_maxPoint));
  gl_Position = hidden ? vec4(2.0, 2.0, 2.0, 1.0) : vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
  gl_PointSize = 2.0 * halfSide * u_ratio;
  v_half = halfSide;
  v_color = a_color;
  v_style = a_style;
  v_uncertainty = uncertainty;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
precision highp int;
in float v_half;
in vec4 v_color;
in vec4 v_style;
in float v_uncertainty;
uniform int u_pass;
uniform float u_radius;
uniform float u_scale;
uniform float u_arrows;
uniform vec3 u_outline;
uniform vec3 u_accent;
out vec4 fragColor;
vec4 over(vec4 top, vec4 bottom) { return top + bottom * (1.0 - top.a); }
vec4 paint(vec3 c, float a) { return vec4(c * a, a); }
float disc(float d, float r) { return clamp(r - d + 0.5, 0.0, 1.0); }
float band(float d, float r0, float r1) { return clamp(min(d - r0 + 0.5, r1 - d + 0.5), 0.0, 1.0); }
void main() {
  // gl_PointCoord runs down the screen, as CSS pixels do.
  vec2 v_local = (gl_PointCoord - 0.5) * 2.0 * v_half;
  float d = length(v_local);
  vec3 c = v_color.rgb;
  bool stale = v_style.y > 0.5;
  float fade = stale ? 0.45 : 1.0;
  vec4 o;
  if (d > v_half) discard;
  if (u_pass == 0) {
    o = over(paint(c, 0.45 * band(d, v_uncertainty - 1.2, v_uncertainty) * fade), paint(c, 0.08 * disc(d, v_uncertainty) * fade));
  } else if (u_pass == 1) {
    float r = u_radius * 1.9;
    o = over(paint(u_accent, band(d, r - 2.5 * u_scale, r)), paint(u_accent, 0.18 * disc(d, r)));
  } else {
    float r = u_radius;
    o = vec4(0.0);
    if (u_arrows > 0.5 && v_style.z >= 0.0) {
      // The arrow's tip shows past the circle in the direction of travel (screen y points down).
      float h = radians(v_style.z);
      vec2 f = vec2(sin(h), -cos(h));
      float along = dot(v_local, f);
      float across = abs(dot(v_local, vec2(-f.y, f.x)));
      float tip = 1.55 * r;
      float cover = clamp(min((tip - along) * 0.8 - across + 0.5, tip - along + 0.5), 0.0, 1.0) * step(0.0, along);
      o = paint(c, cover * (stale ? 0.4 : 1.0));
    }
    vec4 symbol;
    if (v_style.x < 0.5) {
      symbol = stale
        ? over(paint(c, 0.8 * band(d, r - 2.0 * u_scale, r)), paint(c, 0.15 * disc(d, r)))
        : over(paint(c, disc(d, r - 1.5 * u_scale)), paint(u_outline, disc(d, r)));
    } else if (v_style.x < 1.5) {
      float ring = band(d, r - 1.8 * u_scale, r);
      float centre = disc(d, 0.42 * r);
      symbol = over(paint(c, max(ring, centre) * fade), paint(u_outline, 0.85 * disc(d, r) * fade));
    } else {
      float dash = d < r - 2.5 * u_scale ? 1.0 : step(0.45, fract(atan(v_local.y, v_local.x) / 6.2831853 * 8.0));
      symbol = over(paint(c, band(d, r - 2.0 * u_scale, r) * dash * fade), paint(u_outline, 0.7 * disc(d, r) * fade));
    }
    o = over(symbol, o);
  }
  if (o.a <= 0.002) discard;
  fragColor = o;
}`;

export interface FrameUniforms {
  /** Device pixels per CSS pixel. */
  ratio: number;
  /** CSS pixels of the overlay's origin on screen. */
  origin: [number, number];
  /** CSS pixels per Web Mercator world (512 · 2^zoom). */
  world: number;
  viewport: [number, number];
  /** Seconds since the overlay's epoch. */
  time: number;
  mPerPx: number;
  radius: number;
  scale: number;
  arrows: boolean;
  outline: [number, number, number];
  accent: [number, number, number];
}

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`bus overlay shader: ${gl.getShaderInfoLog(shader)}`);
  return shader;
}

/** One buffer of buses (a point each) and its vertex array: the fleet has one, the selected bus another, drawn last. */
export class InstanceBuffer {
  readonly vao: WebGLVertexArrayObject;
  private readonly buffer: WebGLBuffer;
  private capacity = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.vao = gl.createVertexArray()!;
    this.buffer = gl.createBuffer()!;
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    const stride = FLOATS_PER_BUS * 4;
    [INSTANCE_LAYOUT.path, INSTANCE_LAYOUT.time, INSTANCE_LAYOUT.color, INSTANCE_LAYOUT.style].forEach((offset, i) => {
      gl.enableVertexAttribArray(i);
      gl.vertexAttribPointer(i, 4, gl.FLOAT, false, stride, offset * 4);
    });
    gl.bindVertexArray(null);
  }

  /** The whole mirror, when it outgrew the buffer or most of it changed. */
  uploadAll(data: Float32Array) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    if (data.length > this.capacity) {
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
      this.capacity = data.length;
    } else gl.bufferSubData(gl.ARRAY_BUFFER, 0, data);
  }

  /** One bus's instance: a few dozen bytes for a bus that moved, whatever the size of the fleet. */
  uploadSlot(data: Float32Array, slot: number) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, slot * FLOATS_PER_BUS * 4, data, slot * FLOATS_PER_BUS, FLOATS_PER_BUS);
  }

  fits(floats: number) {
    return floats <= this.capacity;
  }

  dispose() {
    this.gl.deleteBuffer(this.buffer);
    this.gl.deleteVertexArray(this.vao);
  }
}

export class BusProgram {
  private readonly program: WebGLProgram;
  private readonly loc: Record<string, WebGLUniformLocation | null>;
  /** The largest point the GL draws, in device pixels. */
  private readonly maxPoint: number;

  constructor(private readonly gl: WebGL2RenderingContext) {
    const program = gl.createProgram()!;
    gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`bus overlay program: ${gl.getProgramInfoLog(program)}`);
    this.program = program;
    this.maxPoint = (gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE) as Float32Array)[1] ?? 64;
    const names = ['u_origin', 'u_world', 'u_viewport', 'u_time', 'u_mPerPx', 'u_radius', 'u_pass', 'u_scale', 'u_arrows', 'u_outline', 'u_accent', 'u_ratio', 'u_maxPoint'];
    this.loc = Object.fromEntries(names.map((n) => [n, gl.getUniformLocation(program, n)]));
  }

  instances(): InstanceBuffer {
    return new InstanceBuffer(this.gl);
  }

  /** Clears the canvas and sets the frame's uniforms; then draw() each pass. */
  begin(u: FrameUniforms, devicePixels: [number, number]) {
    const gl = this.gl;
    gl.viewport(0, 0, devicePixels[0], devicePixels[1]);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(this.program);
    const l = this.loc;
    gl.uniform2f(l.u_origin!, u.origin[0], u.origin[1]);
    gl.uniform1f(l.u_world!, u.world);
    gl.uniform2f(l.u_viewport!, u.viewport[0], u.viewport[1]);
    gl.uniform1f(l.u_time!, u.time);
    gl.uniform1f(l.u_mPerPx!, u.mPerPx);
    gl.uniform1f(l.u_radius!, u.radius);
    gl.uniform1f(l.u_scale!, u.scale);
    gl.uniform1f(l.u_arrows!, u.arrows ? 1 : 0);
    gl.uniform3f(l.u_outline!, ...u.outline);
    gl.uniform3f(l.u_accent!, ...u.accent);
    gl.uniform1f(l.u_ratio!, u.ratio);
    gl.uniform1f(l.u_maxPoint!, this.maxPoint);
  }

  /** Pass 0: uncertainty circles; 1: the selection halo; 2: the buses. */
  draw(instances: InstanceBuffer, count: number, pass: 0 | 1 | 2) {
    if (count === 0) return;
    const gl = this.gl;
    gl.uniform1i(this.loc.u_pass!, pass);
    gl.bindVertexArray(instances.vao);
    gl.drawArrays(gl.POINTS, 0, count);
    gl.bindVertexArray(null);
  }

  dispose() {
    this.gl.deleteProgram(this.program);
  }
}
