import { PI } from './math.js';

export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(readonly radius: number) {}

  area(): number {
    return PI * this.radius * this.radius;
  }
}
