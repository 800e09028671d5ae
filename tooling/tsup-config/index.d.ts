import type { Options } from 'tsup';
export declare function packageConfig(options?: {
  entry?: string[] | Record<string, string>;
  platform?: 'node' | 'neutral';
  banner?: string;
  dts?: boolean;
  cjs?: boolean;
  splitting?: boolean;
  nodeTypes?: boolean;
}): Options;
