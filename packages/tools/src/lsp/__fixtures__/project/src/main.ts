import { add } from './math.js';
import { Circle } from './shapes.js';

const total = add(1, 2);
const circle = new Circle(2);
const label: string = add(total, circle.area());
console.log(label);
